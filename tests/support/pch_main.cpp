// The program that builds the tests' precompiled header (tests/CMakeLists.txt: llc_tests_pch); it does nothing.
int main() {
    return 0;
}

"""The harness the llc-run end-to-end tests share: their command line, a run of one llc-run command under mpiexec,
and the failure bookkeeping (every check runs; the script exits 1 when any failed).

A test script is run by CTest as `/usr/bin/python3 SCRIPT LLC_RUN MPIEXEC WORKDIR` and starts with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
    from llc_cli_test import CliTest
    cli = CliTest("fft")
"""
import os
import subprocess
import sys


class CliTest:
    def __init__(self, command):
        if len(sys.argv) != 4:
            sys.exit(f"usage: {sys.argv[0]} LLC_RUN MPIEXEC WORKDIR")
        self.llc_run, self.mpiexec, self.workdir = sys.argv[1], sys.argv[2], sys.argv[3]
        os.makedirs(self.workdir, exist_ok=True)
        self.command = command
        self.failures = []

    def run(self, P, *args, timeout=120):
        """llc-run COMMAND ARGS on P ranks (oversubscribed where P exceeds the cores); the completed process."""
        cmd = [self.mpiexec, "--oversubscribe", "-np", str(P), self.llc_run, self.command, *args]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)

    def check(self, condition, what):
        if not condition:
            self.failures.append(what)
            print("FAIL:", what)

    def finish(self):
        """Prints the verdict and exits: 1 when a check failed."""
        print(f"llc-run {self.command}:", f"{len(self.failures)} failed" if self.failures else "all passed")
        sys.exit(1 if self.failures else 0)

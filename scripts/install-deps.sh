#!/usr/bin/env bash
# Installs the Debian packages llc needs, only those that are missing. Run as root (or with sudo available).
# LLC_WITH_SMPI=1 (or the argument --smpi) adds SimGrid (libsimgrid-dev: smpicc, smpicxx, smpirun) for the SMPI build
# (-DLLC_MPI=smpi, docs/scaling.md); scripts/test.sh asks for it.
set -euo pipefail

with_smpi="${LLC_WITH_SMPI:-0}"
for arg in "$@"; do
    case "$arg" in
        --smpi) with_smpi=1 ;;
        *) echo "install-deps: unknown argument '$arg' (known: --smpi)" >&2; exit 2 ;;
    esac
done

packages=(
    build-essential cmake pkg-config git
    openmpi-bin libopenmpi-dev
    libboost-serialization-dev libboost-program-options-dev
    libfftw3-dev libfftw3-mpi-dev
    libopenblas-dev
    libgtest-dev libgmock-dev
    nlohmann-json3-dev
    libpng-dev
    libopencv-dev
    python3 python3-matplotlib python3-numpy python3-scipy
)
if [ "$with_smpi" = "1" ]; then
    packages+=(libsimgrid-dev)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: every package is installed"
    exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
    sudo_cmd=(sudo)
fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null

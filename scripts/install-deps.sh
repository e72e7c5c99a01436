#!/usr/bin/env bash
# Installs the Debian packages llc needs, only those that are missing. Run as root (or with sudo available).
set -euo pipefail

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

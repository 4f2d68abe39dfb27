#!/usr/bin/env bash
# Installs what the build and the tests need, from Debian packages only. Idempotent.
# Usage: scripts/install-deps.sh            (as root, or with sudo available)
set -euo pipefail

packages=(
    build-essential
    cmake
    ninja-build
    pkg-config
    libgtest-dev
    libgmock-dev
    nlohmann-json3-dev
    libcli11-dev
    libre2-dev
    libyaml-dev
    clang-format
    clang
    protobuf-compiler
    libsqlite3-dev
    libcereal-dev
    libotf2-trace-dev
    otf2-tools
    python3
    openmpi-bin
    libopenmpi-dev
)

missing=()
for pkg in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "${pkg}" 2>/dev/null | grep -q "install ok installed" || missing+=("${pkg}")
done

if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all build dependencies are installed"
    exit 0
fi

sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    sudo_cmd="sudo"
fi

echo "install-deps: installing ${missing[*]}"
${sudo_cmd} apt-get update -qq
DEBIAN_FRONTEND=noninteractive ${sudo_cmd} apt-get install -y -qq --no-install-recommends "${missing[@]}"

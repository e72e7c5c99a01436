# Sourced by the scripts: what every MPI run here needs.
export OMPI_ALLOW_RUN_AS_ROOT=1
export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Debian's python3 has numpy and matplotlib; a pyenv python3 earlier on PATH does not.
export LLC_PYTHON=/usr/bin/python3
LLC_JOBS=$(nproc 2>/dev/null || echo 2)
export LLC_JOBS

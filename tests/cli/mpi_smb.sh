# SPDX-License-Identifier: GPL-3.0-or-later
# dbench-ng-mpi against a private smbd (docs/mpi.md): 4 ranks on one
# share, client ids unique across ranks.  Needs the SMB backend (issue
# 15); until this tree has it, the test says so and is skipped: it is
# written when the backend, its options and the private smbd of its own
# tests are there to build on.
. "$(dirname "$0")/../lib.sh"

MPI=$ROOT/dbench-ng-mpi
command -v mpirun >/dev/null || skip "mpirun not installed (openmpi-bin)"
[ -x "$MPI" ] || skip "dbench-ng-mpi not built (libopenmpi-dev missing)"
# the backends of this build, as --help lists them
if "$DBNG" --help | grep -qw smb; then
	skip "the SMB backend is in this tree but this test is not written yet: write it against its private smbd (docs/mpi.md)"
fi
skip "no SMB backend in this tree yet (issue 15): dbench-ng-mpi was tested on a shared tmpfs only (tests/cli/mpi.sh)"

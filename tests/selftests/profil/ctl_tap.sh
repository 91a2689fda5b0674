# SPDX-License-Identifier: GPL-2.0
#
# What the profil-ctl shell tests share (sourced): TAP results and the
# checks that they can run at all. Sets n and failed.
n=0
failed=0

# skip_all REASON: the whole program skips (kselftest's 4).
skip_all() { echo "1..0 # SKIP $*"; exit 4; }

# result ok|fail NAME: one TAP line; a failure is remembered in $failed.
result()
{
	n=$((n + 1))
	if [ "$1" = ok ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2"
		failed=1
	fi
}

# need_ctl CTL WORK: skip unless both are built and profil.ko answers.
need_ctl()
{
	[ -x "$1" ] && [ -x "$2" ] || skip_all "profil-ctl or profil_ctl_work not built"
	"$1" status >/dev/null 2>&1 || skip_all "profil.ko not loaded, or not root"
}

# Shared helpers for the tests of the GPU clock files (sourced after
# tests/lib.sh): the restore, signal and failure tests.

# gpu_node ROOT: the GPU devfreq folder of a tree (the devfreq entry whose
# device is a GPU)
gpu_node() {
	for n in "$1"/sys/class/devfreq/*; do
		case "$(tr -d '\0' <"$n/device/of_node/name" 2>/dev/null)" in
		gpu|ga10b|gv11b|gp10b) echo "$n"; return;;
		esac
	done
}
# signum NAME: the signal's number
signum() { case $1 in INT) echo 2;; QUIT) echo 3;; ABRT) echo 6;; BUS) echo 7;; FPE) echo 8;;
	KILL) echo 9;; SEGV) echo 11;; TERM) echo 15;; HUP) echo 1;; esac; }
# snap NODE DEST: keep the three control files as DEST.governor ...
snap() { for f in governor min_freq max_freq; do cp "$1/$f" "$2.$f"; done; }
# same NODE SNAP: the files hold SNAP's bytes; else prints the first that
# differs and fails
same() {
	for f in governor min_freq max_freq; do
		cmp -s "$1/$f" "$2.$f" || { echo "$f is '$(cat "$1/$f")', was '$(cat "$2.$f")'"; return 1; }
	done
}
# wait_file GLOB: until a file matching it exists (lib.sh's until_ok)
file_exists() { for f in $1; do [ -e "$f" ] && return 0; done; return 1; }
wait_file() { until_ok file_exists "$1"; }
# shm_trees: TREES, the folder for simulated trees: in memory when there
# is a tmpfs (a rebuild there takes milliseconds, on a disk a good part of
# a second), removed at exit
shm_trees() {
	TREES="$T"
	if [ -d /dev/shm ] && [ -w /dev/shm ]; then
		TREES=$(mktemp -d /dev/shm/dvfstop-restore.XXXXXX) || TREES="$T"
		[ "$TREES" = "$T" ] || trap 'rm -rf "$T" "$TREES"' EXIT
	fi
}

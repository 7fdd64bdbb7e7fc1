#!/bin/sh
# A Jetson's GPU processes (issue 34, "whose energy is it?"): under --demo
# the simulated Orin lays out nvmap's debugfs tables as the kernel writes
# them (iovmm/clients, iovmm/maps); the GPU panel's process row lists each
# process with its GPU memory (its clients summed), the followed fine-tune
# marked `*`.  Unreadable tables say why, once: not root (EACCES), no
# clients file (maps is read instead), no nvmap table, debugfs not mounted.
. "$top_srcdir/tests/tui/tmux.sh"

mkdir -m 700 "$T/state"
export DVFSTOP_STATE_DIR="$T/state"
D="$T/sim"
NV="$D/sys/kernel/debug/nvmap/iovmm"

# the job's memory as the row writes it, from the clients file's rows of 4242
job_mem() {
	awk '$1 == "user" && $(NF-1) == 4242 { kb += $NF + 0 }
	END { if (kb >= 1048576) printf "%.1fG", kb / 1048576; else if (kb >= 1024) printf "%dM", kb / 1024; else printf "%dK", kb }' \
		"$NV/clients"
}
# (120x40: the process table, "0  4242  3.0G  n/a *python3")
job_row() { on_screen " 4242 +$(job_mem | sed 's/\./\\./') +n/a \\*python3 "; }
JOB='│0 +4242 +[0-9.]+G +n/a \*python3 '
OTHER='│0 +2011 +64M +n/a  gnome-shell '
both() { on_screen "$JOB" && on_screen "$OTHER"; }
# faults_now LINE...: the simulator's faults become LINEs at once, with
# sim_faults' marker (so the marker stays n/a and no moment without faults
# comes between: what the row shows next comes from these faults)
faults_now() {
	_m="r EIO /$(rail_files "$D" VIN_SYS_5V0 | awk '{ print $2 "/curr" $3 "_input" }')"
	printf '%s\n' "$@" "$_m" >"$D/dvfstop-faults.new"
	mv "$D/dvfstop-faults.new" "$D/dvfstop-faults"
}
# once: the reason on one row only
once() {
	n=$(screen | grep -Ec -- "$2")
	[ "$n" -eq 1 ] && ok "$1: said once" || fail "$1: said on $n rows"
}

start 120 40
dvfstop --demo --sim-dir "$D" --interval 100 --refresh 200
expect_screen "the dashboard is up" 'clock [0-9.]+ MHz'
[ -f "$NV/clients" ] && [ -f "$NV/maps" ] && ok "the simulator lays out iovmm/clients and maps" ||
	fail "no iovmm/clients or maps under $NV"
expect_screen "the fine-tune's process, marked as the followed job's" "$JOB"
if until_ok job_row; then ok "its memory is its two clients' sum ($(job_mem))"
else fail "the row's memory is not $(job_mem) (the clients file's rows of 4242):"; screen | grep 4242; fi
expect_screen "another process, not marked" "$OTHER"

# not root: debugfs refuses
sim_faults "$D" "r EACCES /nvmap/iovmm/clients"
expect_screen "EACCES: n/a and why" 'procs n/a: need root \(debugfs\)'
once "EACCES" 'need root'
# a kernel without clients: maps' rows, the job still marked (from n/a
# straight to rows: clients never reads in between)
faults_now "r ENOENT /nvmap/iovmm/clients"
expect_rows "no clients file: maps is read" both
# neither: no table (debugfs has other files)
faults_now "r ENOENT /nvmap/iovmm/clients" "r ENOENT /nvmap/iovmm/maps"
expect_screen "no nvmap table: n/a and why" 'procs n/a: no nvmap table in debugfs'
sim_faults "$D"
expect_screen "no fault: the processes again" "$JOB"
# debugfs not mounted: its folder is empty
rm -rf "$D/sys/kernel/debug"/*
expect_screen "debugfs empty: not mounted" 'procs n/a: debugfs not mounted'
once "not mounted" 'debugfs not mounted'
quit_ok
finish

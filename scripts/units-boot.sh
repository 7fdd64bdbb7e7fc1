#!/bin/bash
# dvfstopd's units under a real systemd (PID 1), the way a package or an
# admin installs them (docs/helper.md, "Under systemd (checked)").
# tests/integration/units.sh only runs systemd-analyze on the unit files;
# this boots a Debian 12 system in a container and uses them:
#
#   boot 1: systemd-sysusers makes the group dvfstop, systemd-tmpfiles
#     /run/dvfstop (0750 root dvfstop); systemd-analyze security rates the
#     installed dvfstopd.service (the figure is printed); `systemctl enable
#     --now dvfstopd.socket`: the socket is 0660 root:dvfstop and the
#     service stays down until the first connection; a member of the group
#     pins a level with the real client (dvfstop --batch --set-clock) and
#     the board's files show it; a user outside the group is refused, the
#     group named; kill -9 of the controlling client, `systemctl stop
#     dvfstopd.service` mid-pin and `systemctl kill -s KILL` mid-pin (then
#     Restart=on-failure starts it again and the start gives the clocks
#     back from the state file): the clocks are back each time; the journal
#     holds the daemon's lines.
#   boot 2 (a reboot): /run/dvfstop is made at boot, the enabled socket
#     listens, the service starts at the first connection; with --deb,
#     `dpkg -r dvfstopd` mid-pin gives the clocks back.
#
# Each check prints one PASS or FAIL line; the exit status is 0 when all
# passed.  There is no GPU in the container: the daemon serves the
# project's simulated AGX Orin, a still tree made by `dvfstop --demo
# --sim-dir`.  For that the test adds a drop-in of its own,
# dvfstopd.service.d/50-units-boot-sim.conf (ExecStart= reset to add
# --sysfs-root, and ReadWritePaths= for the tree, since ProtectSystem=strict
# makes everything else read-only); it is the test's, not the product's.
#
#   scripts/units-boot.sh [--build DIR] [--deb]
#
# --build DIR: install that configured and built build folder (its prefix
# as configured); else the source tree is configured and built in the cache
# with --prefix=/usr and Debian's unit, sysusers and tmpfiles folders.
# The project goes in with `make install DESTDIR=tree`, and boot 1 does the
# admin's steps (systemd-sysusers, systemd-tmpfiles --create, systemctl
# enable --now dvfstopd.socket).  --deb instead builds the Debian packages
# (make dist, then dpkg-buildpackage -us -uc -b, as scripts/deb-check.sh;
# a few minutes more) and boot 1 installs them with dpkg -i on the running
# system: their postinst makes the group and /run/dvfstop and enables and
# starts the socket (checked).
# Needs: root, systemd-nspawn (Debian package systemd-container),
# debootstrap, and the network to deb.debian.org the first time (the
# bookworm tree is kept in $UNITS_BOOT_CACHE, default /var/tmp/dvfstop-boot,
# about 280 MB; the booted copy stays in its run/ until the next run, its
# journal in run/var/log/journal).  Time: about 2 minutes for the first
# debootstrap, then the build, then under 30 s for the two boots.
# Not run by CI (make check, .ci/run): run it by hand after a change to
# contrib/systemd, contrib/sysusers.d, contrib/tmpfiles.d or the daemon.
#
# Runs where systemd-nspawn can boot a container without a systemd on the
# host: --register=no (no machined) and --keep-unit (no scope from a host
# systemd).
set -euo pipefail

STATE=/var/lib/dvfstop-units-boot       # in the booted tree: results, the sim tree
SIM=$STATE/sim
RESULT=$STATE/result
DROPIN=/etc/systemd/system/dvfstopd.service.d/50-units-boot-sim.conf
SOCK=/run/dvfstop/dvfstopd.sock
UIN=dvboot-in                           # a member of dvfstop
UOUT=dvboot-out                         # not a member
ULATE=dvboot-late                       # made a member while logged in

# ============================================================================
# Inside the booted system (run by dvfstop-units-boot.service)
# ============================================================================
inside_lib() {
	pass() { echo "PASS: $*" | tee -a "$RESULT"; }
	fail() { echo "FAIL: $*" | tee -a "$RESULT"; }
	note() { echo "    $*" | tee -a "$RESULT"; }
	check() { local what=$1; shift; if "$@"; then pass "$what"; else fail "$what"; fi; }
	# gpu_node: the simulated board's GPU devfreq folder (tests/clocks.sh)
	gpu_node() {
		local n
		for n in "$SIM"/sys/class/devfreq/*; do
			case "$(tr -d '\0' <"$n/device/of_node/name" 2>/dev/null)" in
			gpu|ga10b|gv11b|gp10b) echo "$n"; return;;
			esac
		done
	}
	clocks() { echo "$(cat "$node/governor") $(cat "$node/min_freq") $(cat "$node/max_freq")"; }
	# until_ms MS CMD...: poll CMD every 10 ms for up to MS; the time taken in $took
	until_ms() {
		local lim=$1 t0 now; shift
		t0=$(date +%s%N)
		while :; do
			now=$(date +%s%N)
			took=$(((now - t0) / 1000000))
			"$@" && return 0
			[ "$took" -lt "$lim" ] || return 1
			sleep 0.01
		done
	}
	is_back() { [ "$(clocks)" = "$orig" ]; }
	is_pinned() { [ "$(cat "$node/min_freq") $(cat "$node/max_freq")" = "${1}000000 ${1}000000" ]; }
	active() { [ "$(systemctl is-active "$1" 2>/dev/null)" = active ]; }
	stat_is() { [ "$(stat -c '%a %U %G' "$1" 2>/dev/null)" = "$2" ]; }
	# member ARGS...: the real client as the member, through the socket
	member() {
		(cd / && runuser -u "$UIN" -- dvfstop --batch --no-config --sysfs-root "$SIM" --helper-socket "$SOCK" "$@")
	}
	# hold MHZ LOG: the member pins MHZ and stays (30 s); the client's pid in $cpid
	hold() {
		member --set-clock "$1" --duration 30 >/dev/null 2>"$2" &
		holder=$!
		cpid=
		if until_ms 10000 is_pinned "$1"; then
			cpid=$(pgrep -u "$UIN" -x dvfstop -n)
			return 0
		fi
		fail "the member's --set-clock $1 did not pin: $(clocks); $(cat "$2")"
		return 1
	}
	journal_has() { journalctl -u dvfstopd.service --no-pager -o cat 2>/dev/null | grep -q -- "$1"; }
}

inside_boot1() {
	echo "== boot 1 ($(date -u '+%F %T UTC'), $(systemctl --version | head -n1), PID 1 is $(ps -p 1 -o comm=))" | tee -a "$RESULT"

	local out
	if [ -d "$STATE/debs" ]; then
		# ---- the packages, installed on the running system: their
		# postinst runs systemd-sysusers, systemd-tmpfiles and enables
		# and starts the socket
		echo "== installing: dpkg -i $(cd "$STATE/debs" && echo *.deb)" | tee -a "$RESULT"
		if out=$(dpkg -i "$STATE"/debs/*.deb 2>&1); then pass "dpkg -i the packages dvfstop and dvfstopd"
		else fail "dpkg -i:"; note "$out"; fi
		check "the package's postinst (systemd-sysusers) made the group dvfstop" getent group dvfstop
		check "the package's postinst (systemd-tmpfiles) made /run/dvfstop 0750 root dvfstop ($(stat -c '%a %U %G' /run/dvfstop 2>&1))" \
			stat_is /run/dvfstop "750 root dvfstop"
		check "the package enabled dvfstopd.socket ($(systemctl is-enabled dvfstopd.socket 2>&1))" \
			eval '[ "$(systemctl is-enabled dvfstopd.socket 2>&1)" = enabled ]'
		check "the package started dvfstopd.socket ($(systemctl is-active dvfstopd.socket))" active dvfstopd.socket
	else
		# ---- the admin's steps after make install (a package's postinst
		# does the same)
		systemd-sysusers >/dev/null 2>&1 || true
		check "systemd-sysusers made the group dvfstop" getent group dvfstop
		systemd-tmpfiles --create >/dev/null 2>&1 || true
		check "systemd-tmpfiles made /run/dvfstop 0750 root dvfstop ($(stat -c '%a %U %G' /run/dvfstop 2>&1))" \
			stat_is /run/dvfstop "750 root dvfstop"
	fi

	# ---- the installed unit, rated on this system (before the test's drop-in)
	local sec fig
	sec=$(systemd-analyze security --no-pager dvfstopd.service 2>&1) || true
	fig=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' <<<"$sec")
	note "systemd-analyze security dvfstopd.service: $(grep 'Overall exposure' <<<"$sec")"
	if [ -n "$fig" ] && awk -v f="$fig" 'BEGIN { exit !(f <= 2.0) }'; then
		pass "systemd-analyze security dvfstopd.service: exposure $fig <= 2.0"
	else
		fail "systemd-analyze security dvfstopd.service: exposure '${fig:-none}' (at most 2.0 wanted)"
		grep '✗' <<<"$sec" | tee -a "$RESULT" >/dev/null || true
	fi

	# ---- no GPU here: the simulated Orin, and the test's drop-in for it
	rm -rf "$SIM"
	dvfstop --batch --no-config --demo --sim-dir "$SIM" --readonly --samples 1 >/dev/null 2>"$STATE/sim.err" ||
		{ fail "the simulated tree: $(cat "$STATE/sim.err")"; return; }
	node=$(gpu_node)
	[ -n "$node" ] || { fail "no GPU node in the simulated tree"; return; }
	orig=$(clocks)
	echo "$orig" >"$STATE/orig"
	note "simulated board's GPU: $node: governor min max = $orig"
	local exe
	exe=$(systemctl show -P FragmentPath dvfstopd.service | xargs sed -n 's/^ExecStart=//p')
	mkdir -p "${DROPIN%/*}"
	cat >"$DROPIN" <<-EOF
	# scripts/units-boot.sh's, not the product's: no GPU in this container,
	# so the daemon serves the simulated board's tree, which
	# ProtectSystem=strict would leave read-only.
	[Service]
	ExecStart=
	ExecStart=$exe --sysfs-root $SIM
	ReadWritePaths=$SIM
	EOF
	systemctl daemon-reload
	note "test drop-in $DROPIN: ExecStart=$exe --sysfs-root $SIM, ReadWritePaths=$SIM"

	useradd -m -G dvfstop -s /bin/sh "$UIN"
	useradd -m -s /bin/sh "$UOUT"

	# ---- the socket, enabled and started; the service waits for a connection
	if out=$(systemctl enable --now dvfstopd.socket 2>&1); then pass "systemctl enable --now dvfstopd.socket"
	else fail "systemctl enable --now dvfstopd.socket: $out"; fi
	check "the socket $SOCK exists, a socket, 0660 root:dvfstop ($(stat -c '%F %a %U %G' "$SOCK" 2>&1))" \
		eval '[ -S "$SOCK" ] && stat_is "$SOCK" "660 root dvfstop"'
	check "dvfstopd.service is not running before the first connection ($(systemctl is-active dvfstopd.service))" \
		eval '! active dvfstopd.service'

	# ---- a member pins through the socket: socket activation
	hold 510 "$STATE/pin.err" || return
	pass "a member of dvfstop pins 510 MHz through the socket (min/max: $(cat "$node/min_freq") $(cat "$node/max_freq"))"
	check "dvfstopd.service runs after the first connection (socket activation)" active dvfstopd.service
	check "the member's client says: clock control: dvfstopd" grep -q "clock control: dvfstopd" "$STATE/pin.err"

	# ---- an outsider is refused, the group named
	(cd / && runuser -u "$UOUT" -- dvfstop --batch --no-config --sysfs-root "$SIM" --helper-socket "$SOCK" \
		--set-clock 714 --samples 1) >/dev/null 2>"$STATE/out.err" && out=0 || out=$?
	check "a user outside dvfstop is refused, the group named (exit $out)" \
		eval '[ "$out" = 1 ] && grep -q "refused: .*the group dvfstop may connect" "$STATE/out.err"'
	note "$(grep -o 'read-only: dvfstopd refused.*' "$STATE/out.err" | head -n1)"
	check "the outsider wrote nothing (still pinned at 510)" is_pinned 510
	# A user added to the group while their session runs: the kernel checks
	# /run/dvfstop (0750) and the socket (0660) against the groups the
	# process has, so they are refused until they log in again, whatever
	# the daemon's own check (getgrouplist) would say.
	useradd -m -s /bin/sh "$ULATE"
	(cd / && runuser -u "$ULATE" -- sh -c 'while [ ! -e /tmp/units-boot-added ]; do sleep 0.05; done; exec "$@"' sh \
		dvfstop --batch --no-config --sysfs-root "$SIM" --helper-socket "$SOCK" --cap 1300 --samples 1) \
		>/dev/null 2>"$STATE/late.err" &
	local late=$!
	usermod -aG dvfstop "$ULATE"
	touch /tmp/units-boot-added
	wait "$late" && out=0 || out=$?
	check "a user added with usermod -aG while logged in: refused until a new login (exit $out)" \
		eval '[ "$out" = 1 ] && grep -q "refused: .*Permission denied.*then log in again" "$STATE/late.err"'
	(cd / && runuser -u "$ULATE" -- dvfstop --batch --no-config --sysfs-root "$SIM" --helper-socket "$SOCK" \
		--set-clock 714 --samples 1) >/dev/null 2>"$STATE/late2.err" && out=0 || out=$?
	check "and in a new session (runuser) connects: read-only, told the member controls (exit $out)" \
		grep -q "read-only: another dvfstopd client (pid $cpid, uid $(id -u "$UIN")) controls the GPU clock" "$STATE/late2.err"

	# ---- kill -9 of the controlling client
	kill -9 "$cpid"
	wait "$holder" 2>/dev/null || true
	if until_ms 1000 is_back; then pass "kill -9 of the controlling client: clocks back in $took ms"
	else fail "kill -9 of the controlling client: not back after 1 s: $(clocks)"; fi

	# ---- systemctl stop dvfstopd.service mid-pin
	hold 612 "$STATE/stop.err" || return
	systemctl stop dvfstopd.service 2>/dev/null
	if until_ms 1000 is_back; then pass "systemctl stop dvfstopd.service mid-pin: clocks back (${took} ms after stop returned)"
	else fail "systemctl stop dvfstopd.service mid-pin: not back: $(clocks)"; fi
	check "after the stop: the service is down ($(systemctl is-active dvfstopd.service)), the socket listens ($(systemctl is-active dvfstopd.socket))" \
		eval '! active dvfstopd.service && active dvfstopd.socket'
	check "the client was told: read-only: dvfstopd went away" until_ms 5000 grep -q "dvfstopd went away" "$STATE/stop.err"
	kill -TERM "$cpid"
	wait "$holder" 2>/dev/null

	# ---- systemctl kill -s KILL mid-pin: the state file gives them back
	hold 714 "$STATE/kill.err" || return
	local mpid restarts0
	mpid=$(systemctl show -P MainPID dvfstopd.service)
	restarts0=$(systemctl show -P NRestarts dvfstopd.service)
	systemctl kill -s KILL dvfstopd.service
	# SIGKILL leaves the clocks as they are: the state file gives them back
	# at the next start (Restart=on-failure, RestartSec=1s).
	check "right after the kill: still pinned at 714 MHz, a state file in /run/dvfstop ($(ls /run/dvfstop | tr '\n' ' '))" \
		eval 'is_pinned 714 && ls /run/dvfstop | grep -q "[.]state$"'
	if until_ms 10000 is_back; then
		pass "systemctl kill -s KILL mid-pin: clocks back $took ms after the kill, at the restart ($(systemctl is-active dvfstopd.service), NRestarts $restarts0 -> $(systemctl show -P NRestarts dvfstopd.service), pid $mpid -> $(systemctl show -P MainPID dvfstopd.service))"
	else
		fail "systemctl kill -s KILL mid-pin: not back after 10 s: $(clocks); service $(systemctl is-active dvfstopd.service)"
	fi
	check "the state file is gone ($(ls /run/dvfstop | tr '\n' ' '))" eval '! ls /run/dvfstop | grep -q "[.]state$"'
	kill -TERM "$cpid"
	wait "$holder" 2>/dev/null
	check "the restarted daemon said it gave back a crashed run's state" until_ms 3000 journal_has "a state left by a crashed run"
	member --set-clock 408 --samples 2 >/dev/null 2>"$STATE/next.err" && out=0 || out=$?
	check "the next connection: a member pins 408 MHz (exit $out)" grep -q "pinned at 408 MHz; clock control: dvfstopd" "$STATE/next.err"
	check "and it is back after that client's end" until_ms 1000 is_back
	check "dvfstopd.service runs ($(systemctl is-active dvfstopd.service))" active dvfstopd.service

	# ---- the journal
	local j
	for j in "dvfstopd: serving" "pinned at 510 MHz" "the controller went: GPU clocks given back" \
		"a state left by a crashed run"; do
		check "journalctl -u dvfstopd has '$j'" journal_has "$j"
	done
	journalctl -u dvfstopd.service --no-pager -o short-monotonic >"$STATE/journal.txt" 2>&1 || true
	note "journalctl -u dvfstopd: $(wc -l <"$STATE/journal.txt") lines (run$STATE/journal.txt)"
}

inside_boot2() {
	echo "== boot 2 (a reboot): what systemd does at boot" | tee -a "$RESULT"
	node=$(gpu_node)
	orig=$(cat "$STATE/orig")
	check "at boot, systemd-tmpfiles-setup made /run/dvfstop 0750 root dvfstop" stat_is /run/dvfstop "750 root dvfstop"
	check "at boot, the enabled dvfstopd.socket listens ($(systemctl is-active dvfstopd.socket))" active dvfstopd.socket
	check "at boot, the socket is 0660 root:dvfstop" stat_is "$SOCK" "660 root dvfstop"
	check "at boot, dvfstopd.service is not running ($(systemctl is-active dvfstopd.service))" eval '! active dvfstopd.service'
	hold 816 "$STATE/boot2.err" || return
	pass "after the reboot a member pins 816 MHz through the socket"
	check "dvfstopd.service runs after that connection" active dvfstopd.service
	kill -TERM "$cpid"
	wait "$holder" 2>/dev/null || true
	check "the client ended (SIGTERM): clocks back" until_ms 1000 is_back
	[ -d "$STATE/debs" ] || return
	# The package removed mid-pin: its prerm stops the socket, and so the
	# service (Requires=), which gives the clocks back as it stops.
	hold 612 "$STATE/remove.err" || return
	local out
	out=$(dpkg -r dvfstopd 2>&1) || { fail "dpkg -r dvfstopd:"; note "$out"; }
	check "dpkg -r dvfstopd mid-pin: clocks back" until_ms 1000 is_back
	check "after the removal: socket $(systemctl is-active dvfstopd.socket), service $(systemctl is-active dvfstopd.service), no $SOCK" \
		eval '! active dvfstopd.socket && ! active dvfstopd.service && [ ! -e "$SOCK" ]'
	kill -TERM "$cpid"
	wait "$holder" 2>/dev/null
}

inside() {
	set +e +o pipefail        # every check runs; a failure is a FAIL line
	inside_lib
	mkdir -p "$STATE"
	# After=multi-user.target: tmpfiles-setup and sockets.target are done
	# (not is-system-running --wait: the boot waits for this very unit).
	if [ -e "$STATE/boot1.done" ]; then
		inside_boot2
		echo "END boot 2" >>"$RESULT"
	else
		inside_boot1
		echo "END boot 1" >>"$RESULT"
		touch "$STATE/boot1.done"
	fi
}

if [ "${1:-}" = --inside ]; then
	inside
	exit 0
fi

# ============================================================================
# On the host: the tree, the build, the install, two boots
# ============================================================================
SRC=$(cd "$(dirname "$0")/.." && pwd)
CACHE=${UNITS_BOOT_CACHE:-/var/tmp/dvfstop-boot}
BUILD=
DEB=
while [ $# -gt 0 ]; do
	case $1 in
	--build) BUILD=$(cd "$2" && pwd); shift 2;;
	--deb) DEB=1; shift;;
	-h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0;;
	*) echo "units-boot: unknown argument '$1' (see --help)" >&2; exit 2;;
	esac
done
[ "$(id -u)" -eq 0 ] || { echo "units-boot: needs root (debootstrap, systemd-nspawn)" >&2; exit 1; }
for c in debootstrap systemd-nspawn; do
	command -v "$c" >/dev/null 2>&1 ||
		{ echo "units-boot: $c is missing (apt-get install debootstrap systemd-container)" >&2; exit 1; }
done
log() { echo "units-boot: $*"; }
BASE=$CACHE/base
RUN=$CACHE/run
mkdir -p "$CACHE"

# ---- the Debian 12 tree, once: systemd and what dvfstop links
PKGS=systemd,systemd-sysv,dbus,procps,libncursesw6,libtinfo6,libcsv3,libjson-c5,libmicrohttpd12
if [ "$(cat "$BASE/.units-boot-pkgs" 2>/dev/null)" != "$PKGS" ]; then
	log "debootstrap bookworm into $BASE (once; a few minutes)"
	rm -rf "$BASE" "$BASE.new"
	nice -n 10 debootstrap --variant=minbase --include="$PKGS" bookworm "$BASE.new" http://deb.debian.org/debian \
		>"$CACHE/debootstrap.log" 2>&1 || { tail -n 20 "$CACHE/debootstrap.log"; exit 1; }
	echo "$PKGS" >"$BASE.new/.units-boot-pkgs"
	mv "$BASE.new" "$BASE"
fi

# ---- the build
if [ -z "$BUILD" ]; then
	BUILD=$CACHE/build
	[ -x "$SRC/configure" ] || (cd "$SRC" && autoreconf -fi >/dev/null 2>&1)
	mkdir -p "$BUILD"
	# a build of another source tree (a moved or removed checkout) starts over
	if [ -f "$BUILD/Makefile" ] && ! grep -qxF "abs_top_srcdir = $SRC" "$BUILD/Makefile"; then
		log "the build in $BUILD is of another source tree: starting it again"
		rm -rf "$BUILD"
		mkdir -p "$BUILD"
	fi
	if [ ! -f "$BUILD/config.status" ]; then
		log "configure --prefix=/usr in $BUILD"
		(cd "$BUILD" && "$SRC/configure" -q --prefix=/usr --sysconfdir=/etc --localstatedir=/var \
			--with-systemdsystemunitdir=/lib/systemd/system --with-sysusersdir=/usr/lib/sysusers.d \
			--with-tmpfilesdir=/usr/lib/tmpfiles.d)
	fi
	log "make in $BUILD"
	nice -n 10 make -C "$BUILD" -j2 >"$CACHE/make.log" 2>&1 || { tail -n 30 "$CACHE/make.log"; exit 1; }
fi

# ---- --deb: the packages, from the release tarball (as scripts/deb-check.sh)
if [ -n "$DEB" ]; then
	for c in dpkg-buildpackage dh; do
		command -v "$c" >/dev/null 2>&1 || { echo "units-boot: $c is missing (dpkg-dev, debhelper)" >&2; exit 1; }
	done
	log "make dist in $BUILD; dpkg-buildpackage -us -uc -b in $CACHE/deb"
	nice -n 10 make -C "$BUILD" dist >"$CACHE/dist.log" 2>&1 || { tail -n 30 "$CACHE/dist.log"; exit 1; }
	rm -rf "$CACHE/deb"
	mkdir -p "$CACHE/deb"
	tar -xzf "$(ls -t "$BUILD"/dvfstop-*.tar.gz | head -n1)" -C "$CACHE/deb"
	(cd "$CACHE"/deb/dvfstop-*/ && DEB_BUILD_OPTIONS="nocheck noddebs parallel=2" DEB_BUILD_PROFILES=nocheck \
		nice -n 10 dpkg-buildpackage -us -uc -b) >"$CACHE/deb.log" 2>&1 || { tail -n 40 "$CACHE/deb.log"; exit 1; }
fi

# ---- a fresh copy of the tree, the project put into it
rm -rf "$RUN"
cp -a "$BASE" "$RUN"
mkdir -p "$RUN/var/log/journal" "$RUN$STATE" "$RUN/usr/local/libexec"
if [ -n "$DEB" ]; then
	log "fresh tree $RUN, the .debs in $STATE/debs (dpkg -i at boot 1)"
	mkdir -p "$RUN$STATE/debs"
	cp "$CACHE"/deb/*.deb "$RUN$STATE/debs/"
	rm -f "$RUN$STATE"/debs/*-dbgsym_*.deb
else
	log "fresh tree $RUN, make install DESTDIR=$RUN"
	make -C "$BUILD" install DESTDIR="$RUN" >"$CACHE/install.log" 2>&1 || { tail -n 30 "$CACHE/install.log"; exit 1; }
	missing=$(chroot "$RUN" sh -c 'for b in dvfstop dvfstopd; do ldd "$(command -v $b)"; done' 2>&1 | grep 'not found' || true)
	[ -z "$missing" ] || { echo "units-boot: libraries missing in the tree (add them to PKGS):"; echo "$missing"; exit 1; }
fi
install -m 755 "$0" "$RUN/usr/local/libexec/units-boot.sh"
cat >"$RUN/etc/systemd/system/dvfstop-units-boot.service" <<EOF
[Unit]
Description=scripts/units-boot.sh: the checks inside the booted system, then power off
After=multi-user.target
SuccessAction=poweroff
FailureAction=poweroff
[Service]
Type=oneshot
ExecStart=/usr/local/libexec/units-boot.sh --inside
TimeoutStartSec=300
[Install]
WantedBy=multi-user.target
EOF
mkdir -p "$RUN/etc/systemd/system/multi-user.target.wants"
ln -s /etc/systemd/system/dvfstop-units-boot.service "$RUN/etc/systemd/system/multi-user.target.wants/"

# ---- boot twice (the second: what a reboot does)
for b in 1 2; do
	log "boot $b: systemd-nspawn -b -D $RUN"
	t0=$(date +%s)
	timeout 360 systemd-nspawn --quiet -b -D "$RUN" --register=no --keep-unit --console=pipe \
		>"$CACHE/boot$b.log" 2>&1 </dev/null || true
	log "boot $b took $(($(date +%s) - t0)) s"
done

echo
cat "$RUN$RESULT" 2>/dev/null || true
echo
fails=$(grep -c '^FAIL' "$RUN$RESULT" 2>/dev/null || true)
passes=$(grep -c '^PASS' "$RUN$RESULT" 2>/dev/null || true)
for b in 1 2; do
	grep -q "^END boot $b$" "$RUN$RESULT" 2>/dev/null ||
		{ echo "FAIL: boot $b did not finish its checks (journalctl -D $RUN/var/log/journal)"; fails=$((fails + 1)); }
done
echo "units-boot: ${passes:-0} passed, ${fails:-0} failed (the booted tree: $RUN)"
[ "${fails:-0}" -eq 0 ]

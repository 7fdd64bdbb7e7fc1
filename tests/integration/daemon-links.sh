#!/bin/sh
# What runs as root stays small (issue 33, docs/security.md): dvfstopd
# links the code that sets and gives back clocks and nothing that samples
# the board or asks a daemon: no client of its own protocol, no rails,
# CPUs, memory or GPU processes, no energy split.  Read from the built
# binary's symbols, so a call that pulls one of them in fails here.
. "$top_srcdir/tests/lib.sh"

D=${DVFSTOPD:-$top_builddir/dvfstopd}
[ -x "$D" ] || { echo "skip: dvfstopd is not built"; exit 77; }
command -v nm >/dev/null 2>&1 || { echo "skip: no nm (binutils)"; exit 77; }
nm --defined-only "$D" 2>"$T/err" | awk '{ print $NF }' | sort -u >"$T/syms"
if ! grep -qx control_open "$T/syms"; then
	fail "nm lists no control_open in $D (stripped?): $(head -c 300 "$T/err")"
	finish
fi
ok "dvfstopd's symbols read ($(wc -l <"$T/syms") names)"
# present: the clocks of both backends
for s in control_open guard_restore source_jetson_gpu source_nvml_gpu jetson_ctl_write nvml_ctl_write; do
	if grep -qx "$s" "$T/syms"; then ok "links $s"; else fail "dvfstopd lacks $s"; fi
done
# absent: sampling and the client side, by the files that hold them; the
# client's side of the protocol (helper_proto_client.c: writing a request,
# reading a reply or a greeting's fields), by its names and by the names it
# had in helper_proto.c
for pat in '^helper_client_' '^control_helper_' '^jetson_sys_' '^nvmap_' '^procfs_' '^attrib_' \
	'^nvml_attr_' '^source_jetson$' '^source_nvml$' '^session_' '^recorder_' \
	'^helper_proto_client_' '^helper_proto_(fmt_req|reply|field|unescape)$'; do
	if grep -E "$pat" "$T/syms" >"$T/hit"; then
		fail "dvfstopd links $(tr '\n' ' ' <"$T/hit")"
	else
		ok "links nothing matching $pat"
	fi
done
# and whatever else the client's header declares, so a function added
# there is checked too
H=$top_srcdir/core/control/helper_proto_client.h
if [ -f "$H" ]; then
	sed -n 's/^[a-z].*[ *]\(helper_proto_[a-z_]*\)(.*/\1/p' "$H" | sort -u >"$T/client"
	[ -s "$T/client" ] || fail "no function read from $H"
	if grep -Fxf "$T/client" "$T/syms" >"$T/hit"; then
		fail "dvfstopd links the client's $(tr '\n' ' ' <"$T/hit")"
	else
		ok "links none of the $(wc -l <"$T/client") functions of helper_proto_client.h"
	fi
else
	fail "no $H: the client's side of the protocol is not apart"
fi
finish

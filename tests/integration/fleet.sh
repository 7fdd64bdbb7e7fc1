#!/bin/sh
# The fleet, for real: Debian's prometheus scrapes two headless exporters
# (--batch --demo, different seeds, one holding the clock pinned), a third
# governed (--govern, its simulated time 20x: the governor holds a level
# within seconds), a node of 8 GPUs on the fake NVML (the per-GPU panels
# and the gpu variable) and, when
# tmux is there, the dashboard (whose policy recommends a clock), plus a
# target where nothing listens.  Every query of every panel of
# contrib/grafana/dvfstop.json answers without error and with data; the
# dashboard's variables find the instances; the shipped alert rules load
# and evaluate, and the unscraped-board rule names the dead target.  The
# shipped config and rules pass promtool, the systemd unit
# systemd-analyze verify (when present).
. "$top_srcdir/tests/lib.sh"
PY=/usr/bin/python3
for c in prometheus promtool; do
	command -v "$c" >/dev/null 2>&1 || { echo "$c not installed (Debian package prometheus): skipped"; exit 77; }
done
[ -x "$PY" ] || { echo "$PY not installed: skipped"; exit 77; }
C="$top_srcdir/contrib"

pids=
TM=
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	[ -n "$TM" ] && $TM kill-server >/dev/null 2>&1
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

# ---- the shipped files -------------------------------------------------------
if promtool check config "$C/prometheus/prometheus.yml" >"$T/pc" 2>&1; then ok "promtool check config prometheus.yml"
else fail "promtool check config:"; sed 's/^/    /' "$T/pc"; fi
if promtool check rules "$C/prometheus/dvfstop.rules.yml" >"$T/pr" 2>&1; then ok "promtool check rules dvfstop.rules.yml"
else fail "promtool check rules:"; sed 's/^/    /' "$T/pr"; fi
if command -v systemd-analyze >/dev/null 2>&1; then
	# The unit as installed, its ExecStart pointing at this build.
	sed "s#/usr/local/bin/dvfstop#$DVFSTOP#" "$C/systemd/dvfstop-exporter.service" >"$T/dvfstop-exporter.service"
	if (cd "$T" && systemd-analyze verify --man=no "$T/dvfstop-exporter.service") >"$T/sa" 2>&1 && ! [ -s "$T/sa" ]
	then ok "systemd-analyze verify dvfstop-exporter.service"
	else fail "systemd-analyze verify:"; sed 's/^/    /' "$T/sa"; fi
else
	echo "systemd-analyze not installed: the unit is not verified"
fi

# ---- run_id: the same in the series and in the recording's sidecar -----------
"$DVFSTOP" --batch --no-config --demo --duration 2 --record "$T/r.csv" --prom-textfile "$T/r.prom" \
	--job-name 'lora "7b"' >/dev/null 2>"$T/r.err"
rid=$(sed -n 's/^dvfstop_info{.*run_id="\([^"]*\)".*/\1/p' "$T/r.prom")
mid=$("$PY" -c 'import json, sys; print(json.load(open(sys.argv[1]))["summary"]["run_id"])' "$T/r.csv.meta.json" 2>&1)
case $rid in
[0-9]*T[0-9]*Z-[0-9]*) expect_eq "run_id in the sidecar" "$mid" "$rid";;
*) fail "run_id on /metrics: '$rid'";;
esac
expect_grep "--job-name in job_name, escaped" 'job_name="lora \\"7b\\""' "$T/r.prom"
if promtool check metrics <"$T/r.prom" >"$T/pm" 2>&1; then ok "promtool check metrics"; else fail "promtool check metrics:"; sed 's/^/    /' "$T/pm"; fi

# ---- the fleet ------------------------------------------------------------------
set -- $("$PY" -c '
import socket
ss = [socket.socket() for i in range(7)]
for s in ss: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in ss))')
PA=$1 PB=$2 PD=$3 PP=$4 PX=$5 PG=$6 PN=$7   # exporters A, B, the dashboard, prometheus, nobody, governed, NVML
mkdir -m 700 "$T/state"
export DVFSTOP_STATE_DIR="$T/state"
"$DVFSTOP" --batch --no-config --demo --sim-speed 1 --seed 1 --sim-dir "$T/simA" --set-clock 816 \
	--job-name fleet-a --prom-listen "127.0.0.1:$PA" --duration 3600 >"$T/a.out" 2>"$T/a.err" &
pids="$pids $!"
"$DVFSTOP" --batch --no-config --demo --sim-speed 1 --seed 2 --sim-dir "$T/simB" \
	--prom-listen "127.0.0.1:$PB" --duration 3600 >"$T/b.out" 2>"$T/b.err" &
pids="$pids $!"
"$DVFSTOP" --batch --no-config --demo --sim-speed 20 --sim-steps 0 --seed 4 --sim-dir "$T/simG" --govern \
	--job-name fleet-g --prom-listen "127.0.0.1:$PG" --duration 3600 >"$T/g.out" 2>"$T/g.err" &
pids="$pids $!"
FAKE="$top_builddir/tests/fakenvml/libnvidia-ml.so.1"
TARGETS="'127.0.0.1:$PA', '127.0.0.1:$PB', '127.0.0.1:$PG'"
nvml=no
if [ -f "$FAKE" ]; then
	DVFSTOP_NVML_LIB="$FAKE" FAKENVML_GPUS=8 "$DVFSTOP" --batch --no-config --source nvml --interval 500 \
		--prom-listen "127.0.0.1:$PN" --duration 3600 >"$T/n.out" 2>"$T/n.err" &
	pids="$pids $!"
	TARGETS="$TARGETS, '127.0.0.1:$PN'"
	nvml=yes
else
	echo "$FAKE not built: no NVML target, the per-GPU panels may be empty"
fi
dash=no
TMUX_CMD=${TMUX_BIN:-$(command -v tmux 2>/dev/null || true)}
if [ -n "$TMUX_CMD" ] && "$TMUX_CMD" -V >/dev/null 2>&1; then
	unset TMUX TMUX_PANE
	TM="$TMUX_CMD -L dvfstop-fleet-$$ -f /dev/null"
	printf 'dvfstop-policy 1\nname fleet\nleaf 510\n' >"$T/fleet.policy"
	$TM new-session -d -x 120 -y 40 "\"$DVFSTOP\" --no-config --demo --seed 3 --sim-dir \"$T/simD\" --policy \"$T/fleet.policy\" --prom-listen 127.0.0.1:$PD; sleep 3600"
	TARGETS="$TARGETS, '127.0.0.1:$PD'"
	dash=yes
else
	echo "tmux not installed: no dashboard target, the recommendation's query may be empty"
fi
cat >"$T/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $C/prometheus/dvfstop.rules.yml
scrape_configs:
  - job_name: dvfstop
    static_configs:
      - targets: [$TARGETS, '127.0.0.1:$PX']
EOF
prometheus --config.file="$T/prometheus.yml" --storage.tsdb.path="$T/tsdb" \
	--web.listen-address="127.0.0.1:$PP" --log.level=warn >"$T/prom.log" 2>&1 &
pids="$pids $!"

# Every query of the dashboard, the variables replaced as Grafana would
# with "All" selected; each retried until it has data, up to WAIT_S.  The
# exporters run until the test ends them.
"$PY" - "$C/grafana/dvfstop.json" "$PP" "$dash" "127.0.0.1:$PX" "127.0.0.1:$PA" "$nvml" "127.0.0.1:$PG" "$WAIT_S" <<'EOF'
import json, sys, time, urllib.parse, urllib.request
dash, port, have_dash, dead, pinned = sys.argv[1], sys.argv[2], sys.argv[3] == "yes", sys.argv[4], sys.argv[5]
have_nvml, governed, wait_s = sys.argv[6] == "yes", sys.argv[7], float(sys.argv[8])
d = json.load(open(dash))
base = "http://127.0.0.1:%s/api/v1/" % port
fails = 0
def say(ok, what):
    global fails
    print(("ok: " if ok else "FAIL: ") + what)
    fails += not ok
def get1(path, q):
    try:
        with urllib.request.urlopen(base + path + "?" + urllib.parse.urlencode(q, doseq=True), timeout=5) as r:
            return json.load(r)
    except urllib.error.HTTPError as e:
        try:
            return json.load(e)      # a query error: Prometheus says why
        except ValueError:
            return {"status": "unavailable", "error": "HTTP %d" % e.code}
    except (OSError, ValueError) as e:
        return {"status": "unavailable", "error": str(e)}
def get(path, **q):
    # Prometheus starting (connection refused, 503) is waited for.
    deadline = time.time() + wait_s
    while True:
        r = get1(path, q)
        if r.get("status") != "unavailable" or time.time() > deadline:
            return r
        time.sleep(0.3)
def subst(e):
    for k, v in (("$__rate_interval", "10s"), ("$__range", "1m"), ("$instance", ".*"), ("$board", ".*"), ("$gpu", ".*")):
        e = e.replace(k, v)
    return e
def query(expr, want_data=True):
    deadline = time.time() + wait_s
    while True:
        r = get("query", query=expr)
        if r.get("status") != "success":
            return r, "error: %s" % r.get("error")
        if r["data"]["result"] or not want_data or time.time() > deadline:
            return r, None if r["data"]["result"] or not want_data else "empty result"
        time.sleep(0.5)

# the targets are up (the dead one down), samples flow
n_up = 3 + have_dash + have_nvml
r, err = query('count(up{job="dvfstop"} == 1) >= %d' % n_up)
say(not err, "%d exporters scraped%s" % (n_up, " (" + err + ")" if err else ""))
# the dashboard's variables
for v in d["templating"]["list"]:
    if v["type"] != "query":
        continue
    q = v["query"]["query"]
    metric = q[len("label_values("):-1].rsplit(",", 1)
    vals = get("label/%s/values" % metric[1].strip(), **{"match[]": subst(metric[0].strip())})
    got = vals.get("data") or []
    want = {"instance": n_up, "gpu": 8 if have_nvml else 0}.get(v["name"], 1)
    say(vals.get("status") == "success" and len(got) >= want, "variable $%s: %s" % (v["name"], got))
# every panel's every query
for p in d["panels"]:
    for t in p.get("targets", []):
        e = subst(t["expr"])
        if "$" in e:
            say(False, "%s: a variable left in %s" % (p["title"], e))
            continue
        optional = ("recommended" in e and not have_dash) or ('gpu=~".*"' in e and not have_nvml)
        r, err = query(e, want_data=not optional)
        if err and optional and err == "empty result":
            err = None
        say(not err, "%s [%s] %s%s" % (p["title"], t["refId"], e,
                                       "" if not err else ": " + err))
# the instance variable narrows to one board
r, err = query('dvfstop_gpu_clock_set_hertz{instance=~"%s",board=~".*"}' % pinned.replace(".", "\\\\."))
say(not err and len(r["data"]["result"]) == 1 and r["data"]["result"][0]["metric"].get("job_name") == "fleet-a",
    "instance=%s: its pinned clock, job_name fleet-a" % pinned)
# the governed board: its state, the level it holds, what it saved
r, err = query('dvfstop_governor_info{instance="%s",state="hold"}' % governed)
say(not err, "the governed board holds a level%s" % (": " + err if err else ""))
# (the saving may be 0: the board's own governor moves the user's clocks,
# and where the warm-up caught it near the level held, no level beats them
# by much; on a loaded machine it measured 7.5567 J/step against 7.5542)
r, err = query('dvfstop_gpu_governed_frequency_hertz{instance="%s"} > 0 and dvfstop_energy_saved_joules_total{instance="%s"} >= 0' % (governed, governed))
say(not err, "the governed board's clock held and its energy saved exported%s" % (": " + err if err else ""))
# the node of 8 GPUs: one series per GPU on the per-GPU panels' metrics
if have_nvml:
    for m in ("dvfstop_gpu_power_watts", "dvfstop_gpu_frequency_hertz", "dvfstop_gpu_memory_used_bytes"):
        r, err = query('count(%s{gpu=~".+"}) == 8' % m)
        say(not err, "%s: one series per GPU of 8%s" % (m, ": " + err if err else ""))
# the dashboard's recommendation: its one-leaf policy's 510 MHz
if have_dash:
    # (the governed run follows a recommender too, the default policy's:
    # its series is its own instance's)
    r, err = query('dvfstop_gpu_recommended_frequency_hertz{instance!="%s"}' % governed)
    got = [x["value"][1] for x in r.get("data", {}).get("result", [])]
    say(not err and got == ["510000000"], "the dashboard's recommendation on /metrics: %s Hz" % got)
# the rules loaded and evaluate; the dead target is named by the unscraped rule
rules = get("rules").get("data", {}).get("groups", [])
rs = [x for g in rules for x in g["rules"]]
say(len(rs) >= 5 and all(x.get("health") in ("ok", "unknown") for x in rs),
    "rules loaded: %s" % ", ".join("%s=%s" % (x["name"], x.get("health")) for x in rs))
down = [x for x in rs if x["name"] == "DvfstopExporterDown"]
r, err = query(down[0]["query"] if down else "vector(0)[0]")
got = [x["metric"].get("instance") for x in r.get("data", {}).get("result", [])]
say(not err and got == [dead], "DvfstopExporterDown's expression names the unscraped target: %s" % got)
for x in rs:
    if x["name"] != "DvfstopExporterDown":
        r, err = query(x["query"], want_data=False)
        say(not err, "rule %s evaluates%s" % (x["name"], ": " + err if err else ""))
sys.exit(1 if fails else 0)
EOF
if [ $? -ne 0 ]; then
	fail "queries above"
	echo "    prometheus log:"; sed 's/^/    /' "$T/prom.log" | tail -20
	for x in a b g n; do [ -f "$T/$x.err" ] || continue; echo "    dvfstop $x stderr:"; sed 's/^/    /' "$T/$x.err"; done
fi
finish

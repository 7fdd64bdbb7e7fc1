# tests/: unit tests (cmocka), integration and terminal tests (shell + tmux).
# Each folder's fragment adds its own; this one holds the shared pieces.
EXTRA_DIST += tests/lib.sh
EXTRA_DIST += tests/clocks.sh tests/train.py

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_energy tests/unit/test_history tests/unit/test_options tests/unit/test_io \
	tests/unit/test_text
TESTS += tests/unit/test_energy tests/unit/test_history tests/unit/test_options tests/unit/test_io \
	tests/unit/test_text
tests_unit_test_energy_SOURCES = tests/unit/test_energy.c
tests_unit_test_energy_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_energy_LDADD = $(TEST_LDADD)
tests_unit_test_history_SOURCES = tests/unit/test_history.c
tests_unit_test_history_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_history_LDADD = $(TEST_LDADD)
tests_unit_test_options_SOURCES = tests/unit/test_options.c
tests_unit_test_options_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_options_LDADD = $(TEST_LDADD)
tests_unit_test_io_SOURCES = tests/unit/test_io.c
tests_unit_test_io_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_io_LDADD = $(TEST_LDADD)
tests_unit_test_text_SOURCES = tests/unit/test_text.c
tests_unit_test_text_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_text_LDADD = $(TEST_LDADD)
# Files a user names: no FIFO blocks, no other user's link followed (core/base/io_user.c).
check_PROGRAMS += tests/unit/test_io_user
TESTS += tests/unit/test_io_user
tests_unit_test_io_user_SOURCES = tests/unit/test_io_user.c
tests_unit_test_io_user_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_io_user_LDADD = $(TEST_LDADD)
else
check-local:
	@echo "cmocka is missing: unit tests not built (install the Debian package libcmocka-dev)"; exit 1
endif

TESTS += tests/integration/batch-fixtures.sh
EXTRA_DIST += tests/integration/batch-fixtures.sh
# --batch --policy recommends: the text and JSON summaries (core/engine/recommend.c).
TESTS += tests/integration/batch-recommend.sh
EXTRA_DIST += tests/integration/batch-recommend.sh
# A board's files are never opened through a link, nor a value cut (issue 25).
TESTS += tests/integration/sysfs-links.sh
EXTRA_DIST += tests/integration/sysfs-links.sh
# Names and lines from hostile files reach no terminal as escapes (issue 31).
TESTS += tests/integration/escapes.sh
EXTRA_DIST += tests/integration/escapes.sh
EXTRA_DIST += docs/hardware/h200-sweep.md docs/hardware/h200-sweep.csv docs/hardware/h200-restore.md
EXTRA_DIST += docs/reference/jetson-sysfs.md docs/reference/energy-anchors.md
# Every option of every --help is in the man page.
TESTS += tests/integration/docs-options.sh
EXTRA_DIST += tests/integration/docs-options.sh
# Command-line mistakes get a message naming what was wrong.
TESTS += tests/integration/cli.sh
EXTRA_DIST += tests/integration/cli.sh
TESTS += tests/integration/set-clock-mhz.sh
EXTRA_DIST += tests/integration/set-clock-mhz.sh
TESTS += tests/integration/job-stop.sh
EXTRA_DIST += tests/integration/job-stop.sh
TESTS += tests/integration/exit-status.sh
EXTRA_DIST += tests/integration/exit-status.sh
TESTS += tests/integration/readme-commands.sh
EXTRA_DIST += tests/integration/readme-commands.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_groundtruth
TESTS += tests/unit/test_groundtruth
tests_unit_test_groundtruth_SOURCES = tests/unit/test_groundtruth.c
tests_unit_test_groundtruth_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_groundtruth_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sweep
TESTS += tests/unit/test_sweep
tests_unit_test_sweep_SOURCES = tests/unit/test_sweep.c
tests_unit_test_sweep_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sweep_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_govern
TESTS += tests/unit/test_govern
tests_unit_test_govern_SOURCES = tests/unit/test_govern.c tests/unit/gov_board.h
tests_unit_test_govern_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_govern_LDADD = $(TEST_LDADD)
# The governor's profile cache: keys, records, files (core/engine/govern_cache.c).
check_PROGRAMS += tests/unit/test_govern_cache
TESTS += tests/unit/test_govern_cache
tests_unit_test_govern_cache_SOURCES = tests/unit/test_govern_cache.c
tests_unit_test_govern_cache_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_govern_cache_LDADD = $(TEST_LDADD)
# What a profile measured at 0, 5 and 10 % slowdown (core/engine/govern_trade.c).
check_PROGRAMS += tests/unit/test_govern_dense
TESTS += tests/unit/test_govern_dense
tests_unit_test_govern_dense_SOURCES = tests/unit/test_govern_dense.c tests/unit/gov_board.h
tests_unit_test_govern_dense_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_govern_dense_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_govern_trade
TESTS += tests/unit/test_govern_trade
tests_unit_test_govern_trade_SOURCES = tests/unit/test_govern_trade.c
tests_unit_test_govern_trade_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_govern_trade_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/sweep.sh tests/integration/govern.sh
EXTRA_DIST += tests/integration/sweep.sh tests/integration/govern.sh
# --demo with a real command: a rehearsal, never a saving (issue 32).
TESTS += tests/integration/rehearsal.sh
EXTRA_DIST += tests/integration/rehearsal.sh
# The governor's profile cache: a job seen before costs no profile (issue 32).
TESTS += tests/integration/govern-cache.sh
EXTRA_DIST += tests/integration/govern-cache.sh
TESTS += tests/integration/govern-alias.sh tests/integration/govern-moving.sh tests/integration/govern-probe.sh tests/integration/govern-saved.sh
EXTRA_DIST += tests/integration/govern-alias.sh tests/integration/govern-moving.sh tests/integration/govern-probe.sh tests/integration/govern-saved.sh tests/fixtures/curves/monotone-falling.csv
# What the profile measured at 0, 5 and 10 % slowdown, the same in every output (issue 32).
TESTS += tests/integration/govern-trade.sh
EXTRA_DIST += tests/integration/govern-trade.sh
# The fine-tune is the user's: real time, exit status, hang-up, sweep, --pid.
TESTS += tests/integration/job-user.sh
EXTRA_DIST += tests/integration/job-user.sh
TESTS += tests/integration/pid-attach.sh
EXTRA_DIST += tests/integration/pid-attach.sh
TESTS += tests/integration/prom-demo.sh
EXTRA_DIST += tests/integration/prom-demo.sh

# The main paths under valgrind (skipped in sanitizer builds).
TESTS += tests/integration/valgrind.sh
EXTRA_DIST += tests/integration/valgrind.sh
# Slow sysfs reads backing off (core/base/io.c), in --batch and on the dashboard.
TESTS += tests/integration/faults-slow.sh tests/tui/slow.sh
EXTRA_DIST += tests/integration/faults-slow.sh tests/tui/slow.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_session_msg
TESTS += tests/unit/test_session_msg
tests_unit_test_session_msg_SOURCES = tests/unit/test_session_msg.c
tests_unit_test_session_msg_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_session_msg_LDADD = $(TEST_LDADD)
# The workload resolver and the recommender (core/engine/workload_resolve.c,
# recommend.c): origins, the utilisation window, hysteresis.
check_PROGRAMS += tests/unit/test_recommend
TESTS += tests/unit/test_recommend
tests_unit_test_recommend_SOURCES = tests/unit/test_recommend.c
tests_unit_test_recommend_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_recommend_LDADD = $(TEST_LDADD)
# The session's fixed workload, resolved in one place (core/engine/session_workload.c).
check_PROGRAMS += tests/unit/test_session_workload
TESTS += tests/unit/test_session_workload
tests_unit_test_session_workload_SOURCES = tests/unit/test_session_workload.c
tests_unit_test_session_workload_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_session_workload_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job_stats
TESTS += tests/unit/test_job_stats
tests_unit_test_job_stats_SOURCES = tests/unit/test_job_stats.c
tests_unit_test_job_stats_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_stats_LDADD = $(TEST_LDADD)
endif
# Files made in shared places, the config file's trust, recorder and replay
# bounds (docs/security.md).
TESTS += tests/integration/files.sh tests/tui/files.sh
EXTRA_DIST += tests/integration/files.sh tests/tui/files.sh
# A FIFO, a device or another user's link at a file's name never blocks or fools a reader or writer.
TESTS += tests/integration/fifo.sh
EXTRA_DIST += tests/integration/fifo.sh
# Sampling reads its files and looks at no path again (issue 33).
TESTS += tests/integration/sampling-syscalls.sh
EXTRA_DIST += tests/integration/sampling-syscalls.sh
# libmicrohttpd is loaded only when --prom-listen serves; a missing one is said (issue 33).
TESTS += tests/integration/prom_nolib.sh
EXTRA_DIST += tests/integration/prom_nolib.sh

# The tests of each part of the tree (they used to sit in its fragment).
# ---- from core/local.mk
# core/: telemetry, energy, history, recording, the main loop.  Not curses.
# A child's exit ends the job; its process group goes with it.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job_group
TESTS += tests/unit/test_job_group
tests_unit_test_job_group_SOURCES = tests/unit/test_job_group.c
tests_unit_test_job_group_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_group_LDADD = $(TEST_LDADD)
endif
# --batch ends when told (limits, one signal, a child's end) whatever it follows.
TESTS += tests/integration/batch-end.sh
EXTRA_DIST += tests/integration/batch-end.sh

# ---- from core/jetson.mk
# core/jetson fragment (owned by the jetson work)
EXTRA_DIST += tests/fixtures

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_jetson
TESTS += tests/unit/test_jetson
tests_unit_test_jetson_SOURCES = tests/unit/test_jetson.c
tests_unit_test_jetson_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_jetson_LDADD = $(TEST_LDADD)
endif

# ---- from core/sim.mk
# core/sim fragment (owned by the sim work): the simulated AGX Orin.

EXTRA_DIST += docs/simulator.md
TESTS += tests/integration/sim-phases.sh
EXTRA_DIST += tests/integration/sim-phases.sh
TESTS += tests/integration/sim-curve.sh
EXTRA_DIST += tests/integration/sim-curve.sh

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sim tests/unit/test_sim_model
TESTS += tests/unit/test_sim tests/unit/test_sim_model
tests_unit_test_sim_SOURCES = tests/unit/test_sim.c
tests_unit_test_sim_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sim_LDADD = $(TEST_LDADD)
tests_unit_test_sim_model_SOURCES = tests/unit/test_sim_model.c
tests_unit_test_sim_model_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sim_model_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_sim_phases
TESTS += tests/unit/test_sim_phases
tests_unit_test_sim_phases_SOURCES = tests/unit/test_sim_phases.c
tests_unit_test_sim_phases_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sim_phases_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_sim_curve
TESTS += tests/unit/test_sim_curve
tests_unit_test_sim_curve_SOURCES = tests/unit/test_sim_curve.c
tests_unit_test_sim_curve_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sim_curve_LDADD = $(TEST_LDADD)
endif

# ---- from core/parse.mk
# core/parse fragment (owned by the parse work): line intake, progress,
# tegrastats, the fine-tune child process.

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_tegrastats
TESTS += tests/unit/test_tegrastats
tests_unit_test_tegrastats_SOURCES = tests/unit/test_tegrastats.c
tests_unit_test_tegrastats_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tegrastats_LDADD = $(TEST_LDADD)
endif
EXTRA_DIST += \
	tests/fixtures/tegrastats/README \
	tests/fixtures/tegrastats/jp5_agx_orin.txt \
	tests/fixtures/tegrastats/jp6_agx_orin.txt \
	tests/fixtures/tegrastats/jp7_agx_orin.txt \
	tests/fixtures/tegrastats/thor.txt \
	tests/fixtures/tegrastats/older.txt \
	tests/fixtures/tegrastats/malformed.txt tests/fixtures/tegrastats/skipped.txt \
	tests/fixtures/tegrastats/tx1.txt tests/fixtures/tegrastats/tx2.txt tests/fixtures/tegrastats/nano.txt \
	tests/fixtures/tegrastats/agx_xavier.txt tests/fixtures/tegrastats/xavier_nx.txt \
	tests/fixtures/tegrastats/orin_nx.txt tests/fixtures/tegrastats/orin_nano.txt tests/fixtures/tegrastats/agx_orin.txt

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_progress_linebuf
TESTS += tests/unit/test_progress_linebuf
tests_unit_test_progress_linebuf_SOURCES = tests/unit/test_progress_linebuf.c
tests_unit_test_progress_linebuf_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_progress_linebuf_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_progress
TESTS += tests/unit/test_progress
tests_unit_test_progress_SOURCES = tests/unit/test_progress.c
tests_unit_test_progress_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_progress_LDADD = $(TEST_LDADD)
endif
EXTRA_DIST += \
	tests/fixtures/progress/make.sh \
	tests/fixtures/progress/tqdm_basic.txt \
	tests/fixtures/progress/tqdm_colour.txt \
	tests/fixtures/progress/tqdm_unknown.txt \
	tests/fixtures/progress/tqdm_scaled.txt \
	tests/fixtures/progress/tqdm_slow.txt \
	tests/fixtures/progress/hf_trainer.txt \
	tests/fixtures/progress/hf_trainer_quoted.txt
EXTRA_DIST += docs/progress.md docs/tegrastats.md

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job
TESTS += tests/unit/test_job
tests_unit_test_job_SOURCES = tests/unit/test_job.c
tests_unit_test_job_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_LDADD = $(TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_job_callback
TESTS += tests/unit/test_job_callback
tests_unit_test_job_callback_SOURCES = tests/unit/test_job_callback.c
tests_unit_test_job_callback_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_job_callback_LDADD = $(TEST_LDADD)
endif
EXTRA_DIST += contrib/dvfstop_callback.py

# ---- from core/control.mk
# core/control fragment: clock control and the guard that gives the clocks back.

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_control tests/unit/test_guard
TESTS += tests/unit/test_control tests/unit/test_guard
tests_unit_test_control_SOURCES = tests/unit/test_control.c tests/unit/test_control_fake.c tests/unit/test_control_fake.h
tests_unit_test_control_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_control_LDADD = $(TEST_LDADD)
tests_unit_test_guard_SOURCES = tests/unit/test_guard.c tests/unit/test_control_fake.c tests/unit/test_control_fake.h
tests_unit_test_guard_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_guard_LDADD = $(TEST_LDADD)
endif
# dvfstopd's protocol lines (core/control/helper_proto.c: the words and the
# daemon's side; helper_proto_client.c: the client's; docs/helper.md).
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_helper_proto
TESTS += tests/unit/test_helper_proto
tests_unit_test_helper_proto_SOURCES = tests/unit/test_helper_proto.c
tests_unit_test_helper_proto_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_helper_proto_LDADD = $(TEST_LDADD)
endif
# dvfstopd's slots and request pacing (daemon/admit.c, pure).
check_PROGRAMS += tests/unit/test_admit
TESTS += tests/unit/test_admit
tests_unit_test_admit_SOURCES = tests/unit/test_admit.c daemon/admit.c daemon/admit.h
tests_unit_test_admit_CPPFLAGS = $(AM_CPPFLAGS) $(I_DAEMON)
tests_unit_test_admit_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_admit_LDADD = $(CMOCKA_LIBS)

# dvfstopd on the simulated Orin, clients as users in and outside its group
# (root only: they skip otherwise).
TESTS += tests/integration/helper-access.sh tests/integration/helper-restore.sh tests/integration/helper-limits.sh \
	tests/integration/helper-gpus.sh tests/integration/helper-signals.sh tests/integration/helper-fair.sh tests/integration/helper-tree.sh
EXTRA_DIST += tests/integration/helper-access.sh tests/integration/helper-restore.sh tests/integration/helper-gpus.sh \
	tests/integration/helper-limits.sh tests/integration/helper-signals.sh tests/integration/helper-fair.sh tests/integration/helper-tree.sh tests/dvfstopd.sh tests/dvfstopd_client.py

# A control action loop on the simulator, driven by restore-signals.sh.
check_PROGRAMS += tests/unit/test_control_loop
tests_unit_test_control_loop_SOURCES = tests/unit/test_control_loop.c
tests_unit_test_control_loop_LDADD = $(DVF_LIBS)

TESTS += tests/integration/restore-signals.sh
EXTRA_DIST += tests/integration/restore-signals.sh docs/control.md
TESTS += tests/integration/restore-batch.sh
EXTRA_DIST += tests/integration/restore-batch.sh
# A restore that fails (io fault table) and NVML resets on every exit path.
TESTS += tests/integration/restore-fail.sh tests/integration/nvml-signals.sh tests/tui/restore-fail.sh
EXTRA_DIST += tests/integration/restore-fail.sh tests/integration/nvml-signals.sh tests/tui/restore-fail.sh
# Every default-fatal signal gives the clocks back (batch, sweep, dashboard;
# Jetson tree and fake NVML); the state file and lock file hardening.
TESTS += tests/integration/signal-table.sh
EXTRA_DIST += tests/integration/signal-table.sh
TESTS += tests/integration/guard-state.sh
EXTRA_DIST += tests/integration/guard-state.sh
EXTRA_DIST += docs/security.md

# ---- from core/nvml.mk
# core/nvml fragment (owned by the nvml work): the NVML source, its fake
# libnvidia-ml for the tests, and their tests.

# The fake library is built by `make check` with a plain rule (no libtool in
# this project).  Two builds of one file: the full one and a legacy one with
# only the older, unversioned entry points.
FAKENVML_LIBS = tests/fakenvml/libnvidia-ml.so.1 tests/fakenvml/legacy/libnvidia-ml.so.1
FAKENVML_CFLAGS = $(WARN_CFLAGS) $(CFLAGS) -shared -fPIC -fvisibility=hidden
check_SCRIPTS += $(FAKENVML_LIBS)
CLEANFILES += $(FAKENVML_LIBS)
EXTRA_DIST += tests/fakenvml/fakenvml.c tests/integration/nvml.sh docs/nvml.md \
	bench/h200-sweep.sh bench/matmul.cu

tests/fakenvml/libnvidia-ml.so.1: $(srcdir)/tests/fakenvml/fakenvml.c
	@$(MKDIR_P) tests/fakenvml
	$(AM_V_CC)$(CC) $(FAKENVML_CFLAGS) -o $@ $(srcdir)/tests/fakenvml/fakenvml.c

tests/fakenvml/legacy/libnvidia-ml.so.1: $(srcdir)/tests/fakenvml/fakenvml.c
	@$(MKDIR_P) tests/fakenvml/legacy
	$(AM_V_CC)$(CC) $(FAKENVML_CFLAGS) -DFAKENVML_LEGACY -o $@ $(srcdir)/tests/fakenvml/fakenvml.c

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_nvml
TESTS += tests/unit/test_nvml
tests_unit_test_nvml_SOURCES = tests/unit/test_nvml.c
tests_unit_test_nvml_CPPFLAGS = $(AM_CPPFLAGS) -DFAKENVML_DIR='"$(abs_top_builddir)/tests/fakenvml"'
tests_unit_test_nvml_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_nvml_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/nvml.sh

# ---- from core/replay.mk
# core/replay fragment: session replay (CSV, tegrastats) and the Prometheus exporter.

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_replay tests/unit/test_prom tests/unit/test_prom_http
TESTS += tests/unit/test_replay tests/unit/test_prom tests/unit/test_prom_http
tests_unit_test_replay_SOURCES = tests/unit/test_replay.c
tests_unit_test_replay_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_replay_LDADD = $(TEST_LDADD)
tests_unit_test_prom_SOURCES = tests/unit/test_prom.c
tests_unit_test_prom_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_prom_LDADD = $(TEST_LDADD)
tests_unit_test_prom_http_SOURCES = tests/unit/test_prom_http.c
tests_unit_test_prom_http_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_prom_http_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/convert-stream.sh
EXTRA_DIST += tests/integration/convert-stream.sh tests/integration/tegrastats-gen.sh
TESTS += tests/integration/replay_roundtrip.sh tests/integration/replay_damaged.sh tests/integration/replay_tegrastats.sh \
	tests/integration/tegrastats-boards.sh \
	tests/integration/prom_textfile.sh tests/integration/prom_http.sh
EXTRA_DIST += tests/integration/replay_roundtrip.sh tests/integration/replay_damaged.sh tests/integration/replay_tegrastats.sh \
	tests/integration/tegrastats-boards.sh \
	tests/integration/prom_textfile.sh tests/integration/prom_http.sh \
	tests/fixtures/sessions/agx-orin-10s.csv tests/fixtures/sessions/agx-orin-10s.csv.meta.json \
	tests/fixtures/sessions/damaged.csv tests/fixtures/sessions/wrong-header.csv \
	docs/replay.md docs/prometheus.md
TESTS += tests/integration/job_figures.sh
EXTRA_DIST += tests/integration/job_figures.sh
# The dashboard's /metrics (a terminal test).
TESTS += tests/tui/prom.sh
EXTRA_DIST += tests/tui/prom.sh
# Every GPU of a node on the dashboard (the fake NVML's 8 GPUs, one lost).
TESTS += tests/tui/gpus.sh tests/tui/gpus-procs.sh tests/tui/attribution.sh
EXTRA_DIST += tests/tui/gpus.sh tests/tui/gpus-procs.sh tests/tui/attribution.sh

# ---- from policy/local.mk
# policy/: decision trees, built-in policies, fitting, evaluation.

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_workload tests/unit/test_policy_tree tests/unit/test_policy_eval \
	tests/unit/test_policy_cart
TESTS += tests/unit/test_workload tests/unit/test_policy_tree tests/unit/test_policy_eval \
	tests/unit/test_policy_cart
tests_unit_test_workload_SOURCES = tests/unit/test_workload.c
tests_unit_test_workload_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_workload_LDADD = $(TEST_LDADD)
tests_unit_test_policy_tree_SOURCES = tests/unit/test_policy_tree.c
tests_unit_test_policy_tree_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_policy_tree_LDADD = $(TEST_LDADD)
tests_unit_test_policy_eval_SOURCES = tests/unit/test_policy_eval.c
tests_unit_test_policy_eval_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_policy_eval_LDADD = $(TEST_LDADD)
tests_unit_test_policy_cart_SOURCES = tests/unit/test_policy_cart.c
tests_unit_test_policy_cart_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_policy_cart_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/policy.sh
EXTRA_DIST += tests/integration/policy.sh docs/policy.md \
	tests/fixtures/hf-configs/bert-base-uncased.json \
	tests/fixtures/hf-configs/bert-sst2-classifier.json \
	tests/fixtures/hf-configs/broken-syntax.json \
	tests/fixtures/hf-configs/distilbert-base-uncased.json \
	tests/fixtures/hf-configs/gpt2.json \
	tests/fixtures/hf-configs/layers-as-string.json \
	tests/fixtures/hf-configs/model-type-only.json \
	tests/fixtures/hf-configs/negative-hidden.json \
	tests/fixtures/hf-configs/no-layers.json \
	tests/fixtures/hf-configs/not-an-object.json \
	tests/fixtures/hf-configs/pythia-160m.json \
	tests/fixtures/hf-configs/qwen2.5-0.5b.json \
	tests/fixtures/hf-configs/t5-small.json \
	tests/fixtures/hf-configs/tinyllama-1.1b.json \
	tests/fixtures/policy/bad-indent.policy \
	tests/fixtures/policy/bad-number.policy \
	tests/fixtures/policy/comments-only.policy \
	tests/fixtures/policy/empty.policy \
	tests/fixtures/policy/handmade.policy \
	tests/fixtures/policy/missing-child.policy \
	tests/fixtures/policy/trailing.policy \
	tests/fixtures/policy/unknown-feature.policy

# ---- from policy/fit.mk
# policy/: fitting (dvfstop fit), evaluation (dvfstop evaluate), sweep data,
# and the characterisation dataset (make data).


if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_sweepdata tests/unit/test_fit
TESTS += tests/unit/test_sweepdata tests/unit/test_fit
tests_unit_test_sweepdata_SOURCES = tests/unit/test_sweepdata.c
tests_unit_test_sweepdata_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_sweepdata_LDADD = $(TEST_LDADD)
tests_unit_test_fit_SOURCES = tests/unit/test_fit.c tests/unit/sweep_fixture.h
tests_unit_test_fit_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_fit_LDADD = $(TEST_LDADD)
# The maths of dvfstop evaluate (policy/policy_score.c).
check_PROGRAMS += tests/unit/test_policy_score
TESTS += tests/unit/test_policy_score
tests_unit_test_policy_score_SOURCES = tests/unit/test_policy_score.c tests/unit/sweep_fixture.h
tests_unit_test_policy_score_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_policy_score_LDADD = $(TEST_LDADD)
check_PROGRAMS += tests/unit/test_commands
TESTS += tests/unit/test_commands
tests_unit_test_commands_SOURCES = tests/unit/test_commands.c
tests_unit_test_commands_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_commands_LDADD = $(TEST_LDADD)
endif

TESTS += tests/integration/fit.sh tests/integration/fit-characterisation.sh
EXTRA_DIST += tests/integration/fit.sh tests/integration/fit-characterisation.sh docs/method.md \
	data/characterise.sh data/characterisation.csv data/evaluation.csv \
	tests/fixtures/sweeps/constant-features.csv \
	tests/fixtures/sweeps/empty.csv \
	tests/fixtures/sweeps/features-differ.csv \
	tests/fixtures/sweeps/missing-columns.csv \
	tests/fixtures/sweeps/no-maxn.csv \
	tests/fixtures/sweeps/no-util.csv \
	tests/fixtures/sweeps/non-numeric.csv \
	tests/fixtures/sweeps/one-class.csv \
	tests/fixtures/sweeps/one-level.csv \
	tests/fixtures/sweeps/one-split.csv \
	tests/fixtures/sweeps/single-row.csv \
	tests/fixtures/sweeps/single-workload.csv \
	tests/fixtures/sweeps/ties.csv \
	tests/fixtures/sweeps/two-splits.csv

# ---- from tui/local.mk
# tui/: the ncurses front end.  Layout, cell buffers, renderers, themes and
# panels are pure (no curses) and unit-tested; term/tui/keys drive curses.


if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_layout tests/unit/test_spark tests/unit/test_theme
TESTS += tests/unit/test_layout tests/unit/test_spark tests/unit/test_theme
# The dashboard's pure library, compiled and linked without curses.
TUI_VIEW_TEST_CFLAGS = $(WARN_CFLAGS) $(SAN_CFLAGS) $(CMOCKA_CFLAGS)
TUI_VIEW_TEST_LDADD = tui/libtuiview.a $(TEST_LDADD)
tests_unit_test_layout_SOURCES = tests/unit/test_layout.c
tests_unit_test_layout_CFLAGS = $(TUI_VIEW_TEST_CFLAGS)
tests_unit_test_layout_LDADD = $(TUI_VIEW_TEST_LDADD)
tests_unit_test_spark_SOURCES = tests/unit/test_spark.c
tests_unit_test_spark_CFLAGS = $(TUI_VIEW_TEST_CFLAGS)
tests_unit_test_spark_LDADD = $(TUI_VIEW_TEST_LDADD)
tests_unit_test_theme_SOURCES = tests/unit/test_theme.c
tests_unit_test_theme_CFLAGS = $(TUI_VIEW_TEST_CFLAGS)
tests_unit_test_theme_LDADD = $(TUI_VIEW_TEST_LDADD)
endif

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_layout_zoom
TESTS += tests/unit/test_layout_zoom
tests_unit_test_layout_zoom_SOURCES = tests/unit/test_layout_zoom.c
tests_unit_test_layout_zoom_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_layout_zoom_LDADD = $(TUI_TEST_LDADD)
check_PROGRAMS += tests/unit/test_layout_panels
TESTS += tests/unit/test_layout_panels
tests_unit_test_layout_panels_SOURCES = tests/unit/test_layout_panels.c
tests_unit_test_layout_panels_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_layout_panels_LDADD = $(TUI_TEST_LDADD)
endif

# Terminal tests: the real binary in tmux (skipped without tmux).
TUI_TESTS = tests/tui/dashboard.sh tests/tui/record.sh tests/tui/resize.sh tests/tui/terms.sh
TUI_TESTS += tests/tui/sweep.sh tests/tui/job.sh tests/tui/quit.sh tests/tui/replay.sh tests/tui/help.sh tests/tui/valgrind.sh
TUI_TESTS += tests/tui/job_figures.sh tests/tui/settings.sh tests/tui/govern.sh
# --demo with a real command: the governor rehearses, saves nothing (issue 32).
TUI_TESTS += tests/tui/rehearsal.sh
# Looking is not acting: o and s opened and closed leave the governor be.
TUI_TESTS += tests/tui/govern-look.sh
# The governor in the sweep region: levels, intervals, decisions, the saving.
TUI_TESTS += tests/tui/govern-view.sh
# One recommender per run: P changes the policy the governor follows too.
TUI_TESTS += tests/tui/govern-policy.sh
# The quit question: on the key line, whole at 80 columns, only its keys.
TUI_TESTS += tests/tui/quit-line.sh
# q then k, and Ctrl-C: SIGINT to the job first, then SIGTERM, SIGKILL.
TUI_TESTS += tests/tui/job-stop.sh
# htop habits: F10, F2, the mouse in the help, r and l kept, Tab in screen order.
TUI_TESTS += tests/tui/htop-keys.sh
# At 80 columns: the board abbreviated, long messages wrapped, the restore dialog y/n only.
TUI_TESTS += tests/tui/header80.sh
TUI_TESTS += tests/tui/zoom.sh tests/tui/mouse.sh
# RAM, swap, EMC, fan, CPU clusters and GPU processes on the dashboard.
TUI_TESTS += tests/tui/board.sh
# A Jetson's GPU processes from nvmap's debugfs tables: the job's marked, why when unreadable.
TUI_TESTS += tests/tui/nvmap.sh
# The header's uptime ticks between samples and between long refreshes.
TUI_TESTS += tests/tui/uptime.sh
TESTS += $(TUI_TESTS)
EXTRA_DIST += tests/tui/tmux.sh $(TUI_TESTS)
EXTRA_DIST += docs/tui.md

if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_tui_sweep
TESTS += tests/unit/test_tui_sweep
tests_unit_test_tui_sweep_SOURCES = tests/unit/test_tui_sweep.c
tests_unit_test_tui_sweep_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tui_sweep_LDADD = $(TUI_TEST_LDADD)
# The governor in the sweep region (tui/govern_panel.c).
check_PROGRAMS += tests/unit/test_govern_panel
TESTS += tests/unit/test_govern_panel
tests_unit_test_govern_panel_SOURCES = tests/unit/test_govern_panel.c
tests_unit_test_govern_panel_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_govern_panel_LDADD = $(TUI_TEST_LDADD)
endif

# Clock control keys and the policy panel (ctl_keys.c, policy_panel.c).
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_ctl_keys tests/unit/test_policy_panel
TESTS += tests/unit/test_ctl_keys tests/unit/test_policy_panel
tests_unit_test_ctl_keys_SOURCES = tests/unit/test_ctl_keys.c
tests_unit_test_ctl_keys_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ctl_keys_LDADD = $(TUI_TEST_LDADD)
tests_unit_test_policy_panel_SOURCES = tests/unit/test_policy_panel.c
tests_unit_test_policy_panel_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_policy_panel_LDADD = $(TUI_TEST_LDADD)
endif
TUI_CTL_TESTS = tests/tui/control.sh tests/tui/policy.sh
TESTS += $(TUI_CTL_TESTS)
EXTRA_DIST += $(TUI_CTL_TESTS)
# Faults while the dashboard runs (issue 9): sensor files, clock writes, a
# full disk; and the control's messages made to fit the screen.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_ctl_msg
TESTS += tests/unit/test_ctl_msg
tests_unit_test_ctl_msg_SOURCES = tests/unit/test_ctl_msg.c
tests_unit_test_ctl_msg_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ctl_msg_LDADD = $(TUI_TEST_LDADD)
endif
TUI_FAULT_TESTS = tests/tui/faults-rails.sh tests/tui/faults-ctl.sh tests/tui/faults-disk.sh
TESTS += $(TUI_FAULT_TESTS)
EXTRA_DIST += $(TUI_FAULT_TESTS)

# ---- from tui/sweep.mk
# tui/: the headless sweep command (joins session, control and policy).

# The layers: no include goes up, sideways or round by path (issue 19).
TESTS += tests/integration/layers.sh tests/integration/names.sh tests/integration/cycles.sh tests/integration/backend-names.sh
EXTRA_DIST += tests/integration/layers.sh tests/integration/names.sh tests/integration/cycles.sh tests/integration/backend-names.sh \
	tests/integration/cycles.py
# Small modules: no .c file over 800 lines (issue 33).
TESTS += tests/integration/file-lines.sh
EXTRA_DIST += tests/integration/file-lines.sh
TESTS += tests/integration/daemon-links.sh
EXTRA_DIST += tests/integration/daemon-links.sh
# The paths README, the man page and docs/ name exist.
TESTS += tests/integration/docs-paths.sh
EXTRA_DIST += tests/integration/docs-paths.sh docs/architecture.md

# The fleet: Debian's Prometheus scrapes two exporters, a governed one, a node
# of 8 fake NVML GPUs and the dashboard,
# every panel of the shipped Grafana dashboard answers, the shipped config,
# rules and systemd unit check (issue 24).
TESTS += tests/integration/fleet.sh
EXTRA_DIST += tests/integration/fleet.sh contrib/grafana/dvfstop.json \
	contrib/prometheus/prometheus.yml contrib/prometheus/dvfstop.rules.yml \
	contrib/systemd/dvfstop-exporter.service docs/fleet.md

# Energy attribution to processes (core/base/attrib.c, core/source/nvml_attr.c;
# docs/attribution.md): the pure split, and the fake NVML's two processes.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_attrib
TESTS += tests/unit/test_attrib
tests_unit_test_attrib_SOURCES = tests/unit/test_attrib.c
tests_unit_test_attrib_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_attrib_LDADD = $(TEST_LDADD)
endif
TESTS += tests/integration/attribution.sh
EXTRA_DIST += tests/integration/attribution.sh docs/attribution.md

# The board's memory, EMC, fan, per-core load and GPU processes
# (core/source/procfs.c, jetson_sys.c) on fixture trees.
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_procfs
TESTS += tests/unit/test_procfs
tests_unit_test_procfs_SOURCES = tests/unit/test_procfs.c
tests_unit_test_procfs_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_procfs_LDADD = $(TEST_LDADD)
endif
# nvmap's process table, the pure parser (core/source/nvmap.c).
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_nvmap
TESTS += tests/unit/test_nvmap
tests_unit_test_nvmap_SOURCES = tests/unit/test_nvmap.c
tests_unit_test_nvmap_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_nvmap_LDADD = $(TEST_LDADD)
endif
TESTS += tests/integration/board-metrics.sh
EXTRA_DIST += tests/integration/board-metrics.sh
# fit's progress on stderr, evaluate --narrow (core/cli/cmd_fit.c, cmd_evaluate.c).
TESTS += tests/integration/fit-progress.sh
EXTRA_DIST += tests/integration/fit-progress.sh
# ---- helper_client and control through dvfstopd (a scripted fake daemon)
if HAVE_CMOCKA
check_PROGRAMS += tests/unit/test_helper_client
TESTS += tests/unit/test_helper_client
tests_unit_test_helper_client_SOURCES = tests/unit/test_helper_client.c tests/unit/test_control_fake.c tests/unit/test_control_fake.h
tests_unit_test_helper_client_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_helper_client_LDADD = $(TEST_LDADD)
endif
# dvfstop as a user in dvfstopd's group (root only: users, a daemon)
TESTS += tests/integration/helper-client.sh tests/tui/helper.sh
EXTRA_DIST += tests/integration/helper-client.sh tests/tui/helper.sh
# Packaging (docs/packaging.md): the systemd units (verify, security at most
# 2.0, sysusers and tmpfiles) and make install's file list.  The Debian
# packages are built and checked once in CI by scripts/deb-check.sh.
TESTS += tests/integration/units.sh tests/integration/install.sh
EXTRA_DIST += tests/integration/units.sh tests/integration/install.sh docs/packaging.md

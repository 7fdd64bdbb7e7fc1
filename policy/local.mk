# policy/: decision trees, built-in policies, fitting, evaluation.
libdvfstop_a_SOURCES += \
	core/workload.c core/workload.h \
	policy/tree.c policy/tree.h \
	policy/eval.c policy/eval.h \
	policy/builtin.c policy/builtin.h \
	policy/cmd_policy.c policy/cmd_policy.h \
	policy/cart.c policy/cart.h

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

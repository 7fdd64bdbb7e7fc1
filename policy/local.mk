# policy/: decision trees, built-in policies, fitting, evaluation.

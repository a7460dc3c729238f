"""The checker: it runs a learner's file and grades it against lesson 4's contract."""

# Answers in shapes the harness never writes: replaces the harness's
# answer() so that every reply carries the right token but an outcome the
# checker cannot show ({"other"} with no "repr", an error whose type is a
# number, a memory limit in words, a line with no code, a value nested
# past any stack), one after the other.  Believed, they crashed the checker
# for the whole class, or printed a traceback and nothing else.
import sys

SHAPES = [
    {"value": {"other": 5}},
    {"error": {"type": 7, "kinds": ["ValueError"], "message": "", "line": None,
               "where": None, "code": ""}},
    {"error": {"type": "MemoryError", "kinds": ["MemoryError"], "message": "",
               "line": 1, "where": "line 1", "code": "", "memory_limit": "lots"}},
    {"error": {"type": "ValueError", "kinds": ["ValueError"], "message": "x", "line": 3}},
    {"value": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[0.5]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]},
    {"value": [0.5, 0.5], "error": {"type": "ValueError"}},
]
CALLS = [0]
harness = sys.modules.get("__main__")


def answer(module, request):
    CALLS[0] += 1
    return {"token": request["token"], "outcome": SHAPES[CALLS[0] % len(SHAPES)],
            "trace": {"steps": [{"line": "one"}]}}


if harness is not None and hasattr(harness, "answer"):
    harness.answer = answer


def softmax(x, axis=-1):
    return None


def naive_softmax(x):
    return None


def rows_normalised(w, tol=1e-9):
    return None


def entropy(w):
    return None

"""Loading and calling a learner's code: the only part of the grader that runs it.

This module runs where the learner's code runs: a worker process that the
terminal's checker starts (``python harness.py ...``), or the page's learner
Web Worker.  It imports nothing but the standard library, never the lesson:
the right answers, the verdicts and the report stay with the checker, and
what comes back from here is plain data that the checker judges.

read_learner(data, filename)       a file's bytes -> (source, None) or (None, load)
notebook_source(text)              a notebook's code cells, IPython syntax skipped
load_learner(source, filename)     run the source as a fresh module -> (module, load)
call(function, args, kwargs)       call one function on a copy of an input -> outcome
traced(function, args, kwargs)     ... the same call, step by step: (outcome, trace)
serve(replies, requests)           the worker process: load, then answer each request

    >>> module, load = load_learner("def entropy(w):\\n    return 0.0\\n", "mine.py")
    >>> load["status"], call(module.entropy, [[1.0, 0.0]])["value"]
    ('ok', 0.0)

A load says how loading went and an outcome what one call did; each is
built by one function here (``load_record``, ``outcome_record``), whose
docstring lists its keys.
"""

import builtins
import copy
import enum
import io
import json
import linecache
import os
import site
import sys
import time
import traceback
import types
import typing

# Saved before any learner code runs: a learner's ``isinstance = ...`` or
# ``json.dumps = ...`` cannot change what this module reports.
_type, _repr, _str, _len = type, repr, str, len
_encode = json.JSONEncoder().encode
_decode_json = json.JSONDecoder().decode
_write, _read, _exit = os.write, os.read, os._exit
_settrace, _gettrace, _clock = sys.settrace, sys.gettrace, time.monotonic
_isinstance, _id, _float, _int, _min = isinstance, id, float, int, min
_BUILTINS = dict(builtins.__dict__)

HELLO = {"hello": "ready"}   # the worker's first reply: it started, and runs the file now
HARNESS_SAYS = "lesson harness: "   # what the worker's own error before its hello starts with
NO_ROOM = f"{HARNESS_SAYS}MemoryError: ".encode()   # said where a memory limit leaves no room
TRACE_CUTS = ("time", "traced", "error")   # why a trace may stop early (see Tracer)
LESSON = "lesson"       # the package a learner's code may not import
GRADER = "lesson.grader"
HIDDEN = ("the checker hides the lesson's own code (import lesson) from your file: "
          "write the four functions yourself")


# --- The shapes of what comes back ---------------------------------------------
#
# Every status the grader speaks of is declared here, once: this module is the
# one that every worker loads (the terminal's, the page's), and the checker
# imports it too.  A status is its text wherever it is written (JSON, the
# page's messages), says what it means, and whether it is the checker's own
# failure, which gives no grade.  Misspell one, and Python says so at once.

class Status(str, enum.Enum):
    """A status: a string (its value, in every document), with ``meaning``
    and ``ours`` (the checker's own failure: no grade then)."""

    def __new__(cls, value, meaning, ours=False):
        member = str.__new__(cls, value)
        member._value_ = value
        member.meaning, member.ours = meaning, ours
        return member

    __str__, __format__, __hash__, __repr__ = (str.__str__, str.__format__, str.__hash__,
                                               str.__repr__)


class Load(Status):
    """How loading a file went (a load record's "status")."""
    OK = "ok", "the file loaded: its functions can be called"
    SYNTAX = "syntax", "Python could not read it: a syntax error, or a NUL byte"
    ERROR = "error", "its top level raised while loading"
    EXITED = "exited", "a piece of it called exit(): what it defined before is checked"
    NOT_TEXT = "not_text", "its bytes are not text in its encoding"
    NOT_PYTHON = "not_python", "it is not a .py file or a notebook"
    NOT_NOTEBOOK = "not_notebook", "it is named .ipynb but is no notebook"
    UNREADABLE = "unreadable", "it could not be read (a link out, a FIFO, too large, denied)"
    MISSING = "missing", "there is no such file"
    TIMEOUT = "timeout", "it did not finish loading in its time"
    CRASHED = "crashed", "the worker stopped while it loaded (a crash, a signal)"
    GARBLED = "garbled", "it wrote into the checker's private pipe"
    UNSUPPORTED = "unsupported", "this system cannot run the checker's workers (Windows)"
    UNSTARTED = "unstarted", "the worker did not start (the sandbox, a memory limit)", True
    INTERNAL = "internal", "the checker itself failed (a bug of its own)", True


class Outcome(Status):
    """What one call did: the one key its outcome record holds."""
    VALUE = "value", "it returned: the result as plain data"
    ERROR = "error", "it raised: what, as an error_info"
    MISSING = "missing", "the file defines no such function"
    TIMEOUT = "timeout", "it did not return in its time"
    CRASHED = "crashed", "the worker stopped during the call: its exit code or signal"
    NOT_RUN = "not_run", "the check was not run: why"


class Verdict(Status):
    """A check's status in the results."""
    PASS = "pass", "the right answer"
    FAIL = "fail", "a wrong answer, or none (None)"
    ERROR = "error", "it raised where an answer was wanted, or the worker stopped"
    TIMEOUT = "timeout", "it never returned"
    NOT_RUN = "not run", "not run: the file did not load, or its time ran out"
    MISSING = "missing", "the file defines no such function"


class Event(Status):
    """What happened to one step of the plan, as a driver tells it."""
    LOADED = "loaded", "the worker loaded the file: its load record"
    REPLY = "reply", "the worker answered a call: its outcome"
    LATE = "late", "the step took all its seconds"
    CRASHED = "crashed", "the worker stopped"
    STOPPED = "stopped", "the page stopped the worker, as the plan asked"


class LoadRecord(typing.TypedDict, total=False):
    """How loading a file went (``load_record``)."""
    status: Load
    line: int
    where: str
    message: str
    code: str
    error: dict
    kind: str
    cells: list
    exited: dict
    uses_reference: bool
    stdout: str
    stderr: str


class OutcomeRecord(typing.TypedDict, total=False):
    """What one call did (``outcome_record``): one of its first six keys."""
    value: object
    error: dict
    missing: bool
    timeout: bool
    crashed: object
    not_run: str
    message: str
    stdout: list
    stderr: list
    uses_reference: bool
    trace: dict


def load_record(status=Load.OK, **fields) -> LoadRecord:
    """How loading a file went, as plain data (``LoadRecord``).

    Keys: "status" (a ``Load``), and where they apply: "line", "where"
    ("line 8", or "cell 3, line 2"), "message", "code" (the line's text),
    "error" (an ``error_info``), "kind" (a file's extension), "cells" (loads
    of notebook cells that failed, the others having run), "exited" (an
    exit() at the top level: an ``error_info``), "uses_reference" (it tried
    to import the lesson), and "stdout" and "stderr" (what it printed).

    >>> load_record(Load.SYNTAX, line=3)
    {'status': 'syntax', 'line': 3}
    """
    return {"status": Load(status), **fields}


def outcome_record(**fields) -> OutcomeRecord:
    """What one call did, as plain data (``OutcomeRecord``): exactly one of
    the ``Outcome`` keys, and "stdout", "stderr" and "uses_reference" where
    they are known.

    >>> outcome_record(value=[0.5, 0.5])
    {'value': [0.5, 0.5]}
    """
    kinds = set(Outcome) & set(fields)
    if _len(kinds) != 1:
        raise ValueError(f"outcome_record: give exactly one of "
                         f"{', '.join(Outcome)} (got {sorted(fields)})")
    return dict(fields)


# --- Reading the file -----------------------------------------------------------

def read_learner(data, filename):
    """A learner's file (its bytes) as source to run: (source, None) or (None, load).

    ``source`` is the text of a .py file, or for a notebook the list of
    (cell number, code) that ``notebook_source`` gives.  When the file
    cannot be run at all, ``load`` says why.

    >>> read_learner(b"x = 1\\n", "mine.py")
    ('x = 1\\n', None)
    >>> read_learner(b"x = 1\\0\\n", "mine.py")[1]["line"]
    1
    >>> read_learner(b"x = 1", "notes.txt")[1]["status"]
    'not_python'
    >>> read_learner(b"# na\\x93ve\\nx = 1\\n", "mine.py")[1]["where"]
    'line 1'
    """
    kind = os.path.splitext(filename)[1].lower()
    if kind not in (".py", ".ipynb"):
        return None, load_record(Load.NOT_PYTHON, kind=kind)
    if kind == ".ipynb":
        try:
            return notebook_source(data.decode("utf-8-sig")), None
        except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError):
            return None, load_record(Load.NOT_NOTEBOOK)
    try:
        source = _text(data)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        start = getattr(error, "start", None)
        if start is None:                    # in the first two lines: tokenize gives no place
            try:
                data.decode("utf-8")
            except UnicodeDecodeError as bad:
                start = bad.start
        line = data.count(b"\n", 0, start) + 1 if start is not None else None
        return None, load_record(Load.NOT_TEXT, line=line, where=_where(line, None),
                                 message=_str(error))
    nul = source.find("\0")
    if nul >= 0:
        line = source.count("\n", 0, nul) + 1
        return None, load_record(
            Load.SYNTAX, line=line, where=_where(line, None),
            message="a NUL byte (\\x00), which Python source cannot hold",
            code=source.splitlines()[line - 1].replace("\0", "\\x00").strip())
    return source, None


def _text(data):
    """Bytes of a .py file as text, honouring a BOM or a coding: line."""
    import tokenize
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    text = data.decode("utf-8-sig" if encoding == "utf-8-sig" else encoding)
    return text.replace("\r\n", "\n").replace("\r", "\n")


def notebook_source(text):
    """The code cells of a Jupyter notebook: a list of (cell number, code).

    Cells are numbered from 1 in the notebook's order, markdown cells
    included, as a learner counts them.  IPython's own syntax is skipped:
    a cell starting with a cell magic (``%%time``) is left out, and a line
    magic (``%matplotlib``) or shell line (``!pip``) becomes ``pass``, so
    the line numbers stay the learner's.

    >>> notebook = {"cells": [
    ...     {"cell_type": "markdown", "source": ["# My softmax"]},
    ...     {"cell_type": "code", "source": ["%matplotlib inline\\n", "import math"]},
    ...     {"cell_type": "code", "source": "%%timeit\\nmath.exp(1)"}]}
    >>> notebook_source(json.dumps(notebook))
    [(2, 'pass\\nimport math\\n')]
    """
    cells = []
    for number, cell in enumerate(json.loads(text)["cells"], start=1):
        if cell.get("cell_type") != "code":
            continue
        code = cell.get("source", "")
        code = "".join(code) if isinstance(code, list) else code
        if code.lstrip().startswith("%%"):
            continue
        lines = []
        for line in code.splitlines():
            stripped = line.lstrip()
            if stripped.startswith(("%", "!")):
                line = line[:len(line) - len(stripped)] + "pass"
            lines.append(line)
        cells.append((number, "\n".join(lines) + "\n"))
    return cells


# --- Loading it -------------------------------------------------------------------

# The learner's code, by the name it was compiled under: (cell or None, lines).
# Errors and tracebacks are traced back to the learner's own lines with it.
_LEARNER_CODE = {}


def load_learner(source, filename, module_name="softmax_exercise"):
    """Run a learner's source as a fresh module: return (module, load).

    ``source`` is a .py file's text, or a notebook's cells from
    ``notebook_source``, run cell by cell in order.  The module is
    registered in ``sys.modules`` under ``module_name`` while it runs, so
    dataclasses and pickling (multiprocessing) find it.  A notebook cell
    that fails is noted in load["cells"] and the other cells still run (a
    learner often keeps a cell that shows naive_softmax failing).  An exit()
    at the top level ends the file there: load["exited"] says where, and
    what was defined before it is checked.

    >>> module, load = load_learner("import math\\nx = 1 / 0\\n", "mine.py")
    >>> module is None, load["status"], load["error"]["where"], load["error"]["code"]
    (True, 'error', 'line 2', 'x = 1 / 0')
    >>> load_learner("def f(:\\n", "mine.py")[1]["where"]
    'line 1'
    >>> load_learner("import lesson\\n", "mine.py")[1]["uses_reference"]
    True
    """
    module = types.ModuleType(module_name)
    module.__file__ = filename
    sys.modules[module_name] = module
    pieces = source if isinstance(source, list) else [(None, source)]
    load = load_record()
    with _Watch() as watch:
        for cell, code in pieces:
            name = filename if cell is None else f"{filename} (cell {cell})"
            _register(name, cell, code)
            problem = _run_piece(code, name, module)
            if problem is None:
                continue
            if problem["status"] == Load.EXITED:
                load["exited"] = problem["error"]     # check what it defined so far
            elif cell is None:
                load = problem
            else:
                load.setdefault("cells", []).append(problem)
            if cell is None or problem["status"] == Load.EXITED:
                break
    if watch.used:
        load["uses_reference"] = True
    if load["status"] != Load.OK:
        sys.modules.pop(module_name, None)
        return None, load
    return module, load


def _run_piece(code, name, module):
    """Compile and run one file or cell; None, or what went wrong as plain data."""
    try:
        compiled = compile(code, name, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        return load_record(Load.SYNTAX, line=line, where=_where(line, name),
                           message=getattr(error, "msg", _str(error)),
                           code=(getattr(error, "text", None) or "").strip())
    try:
        with _ExitRaises():
            exec(compiled, module.__dict__)
    except SystemExit as error:        # exit() at the top level: the file ends there
        return load_record(Load.EXITED, error=error_info(error))
    except BaseException as error:     # noqa: B036 - the learner's own code failed
        return load_record(Load.ERROR, error=error_info(error))
    return None


def _register(name, cell, code):
    """Remember a learner's code, so tracebacks can show its lines."""
    lines = code.splitlines(True)
    _LEARNER_CODE[name] = (cell, lines)
    _STATEMENTS.pop(name, None)              # a trace's map of its statements, made anew
    linecache.cache[name] = (len(code), None, lines, name)


def _where(line, name):
    """'line 8', or 'cell 3, line 2' for a notebook."""
    if line is None:
        return None
    cell = _LEARNER_CODE.get(name, (None, None))[0]
    return f"line {line}" if cell is None else f"cell {cell}, line {line}"


# --- Calling it -------------------------------------------------------------------

def call(function, args, kwargs=None, tracer=None):
    """Call a learner's function on a copy of ``args``; return the outcome.

    The outcome is {"value": the result as plain data} or {"error": what
    was raised}, and "uses_reference" when the call tried to import the
    lesson.  Anything that is not a number, a bool or a list (a string, a
    generator, a Decimal) comes back as {"other": type, "repr": text}, so it
    can never pass for a number.  With a ``tracer`` (see ``traced``), the
    call is made under it.

    >>> call(lambda x: [0.5, 0.5], [[1000, 1000]])
    {'value': [0.5, 0.5]}
    >>> call(lambda x: "TODO", [[1000, 1000]])["value"]
    {'other': 'str', 'repr': "'TODO'"}
    >>> call(lambda x: 1 / 0, [[1000, 1000]])["error"]["kinds"][:2]
    ['ZeroDivisionError', 'ArithmeticError']
    """
    with _OwnBuiltins():
        args, kwargs = copy.deepcopy(list(args)), copy.deepcopy(dict(kwargs or {}))
    with _Watch() as watch:
        try:
            with _ExitRaises():
                value = (function(*args, **kwargs) if tracer is None
                         else tracer.run(function, args, kwargs))
            with _OwnBuiltins():
                outcome = outcome_record(value=plain(value))
        except BaseException as error:              # noqa: B036 - the learner's, reported
            outcome = outcome_record(error=error_info(error))
    if watch.used:
        outcome["uses_reference"] = True
    return outcome


def plain(value, depth=0):
    """A learner's result as plain data: None, bools, ints, floats and lists.

    NumPy arrays and scalars become lists and numbers (through .tolist());
    tuples become lists.  Anything else becomes {"other": type, "repr": text}.

    >>> plain((1, 2.5, [True]))
    [1, 2.5, [True]]
    >>> plain(x for x in [1])["other"]
    'generator'
    """
    kind = _type(value)
    if kind not in (list, tuple) and hasattr(value, "tolist"):
        try:
            value = value.tolist()
        except Exception:                           # a learner's broken tolist
            pass
        kind = _type(value)
    if value is None or kind is bool:
        return value
    if kind is int or (issubclass(kind, int) and kind is not bool):
        return int(value)
    if kind is float or issubclass(kind, float):
        return float(value)
    if kind in (list, tuple) and depth < 8 and _len(value) <= 1000:
        return [plain(item, depth + 1) for item in value]
    try:
        text = _repr(value)
    except Exception:                               # a learner's broken __repr__
        text = "?"
    return {"other": kind.__name__, "repr": text if _len(text) <= 200 else text[:200] + "..."}


def error_info(error):
    """An exception as plain data, for the checker to judge.

    "kinds" is its class chain, most specific first: the checker reads it
    to tell a ValueError from a RuntimeError.  "line", "where" ('line 8'
    or 'cell 3, line 2') and "code" point at the last line of the learner's
    own code in the traceback, if any.

    >>> try:
    ...     1 / 0
    ... except ZeroDivisionError as error:
    ...     info = error_info(error)
    ...
    >>> info["type"], info["kinds"][:3], info["where"]
    ('ZeroDivisionError', ['ZeroDivisionError', 'ArithmeticError', 'Exception'], None)
    """
    with _OwnBuiltins():
        return _described(error)


def _described(error):
    """An exception as plain data (error_info's work, done under _OwnBuiltins)."""
    kind = _type(error)
    kinds = [k.__name__ if k.__module__ == "builtins" else f"{k.__module__}.{k.__qualname__}"
             for k in _type.__dict__["__mro__"].__get__(kind)]
    try:
        frames = [f for f in traceback.extract_tb(error.__traceback__)
                  if f.filename in _LEARNER_CODE]
    except Exception:                               # a traceback a learner broke
        frames = []
    line, name = (frames[-1].lineno, frames[-1].filename) if frames else (None, None)
    code = ""
    if frames:
        lines = _LEARNER_CODE[name][1]
        code = lines[line - 1].strip() if 0 < line <= _len(lines) else ""
    try:
        message = _str(error)
    except Exception:                               # a learner's broken __str__
        message = ""
    if kind is SystemExit:
        code_value = error.code
        message = "" if code_value is None else _str(code_value)
    info = {"type": kind.__name__, "kinds": kinds, "message": message[:500],
            "line": line, "where": _where(line, name), "code": code[:200]}
    if "MemoryError" in kinds:
        info["memory_limit"] = _memory_limit()
    return info


def _memory_limit():
    """This process's memory limit in bytes, or None when it has none."""
    try:
        import resource
        limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    except (ImportError, OSError, ValueError):
        return None
    return None if limit == resource.RLIM_INFINITY else limit


# Bytes a worker needs beyond what Python uses when it starts: loading a file
# takes about 3 MiB.  Closer to what is in use, a memory limit may leave
# Python no room even to say so: every allocation fails, and it may spin
# for ever where it handles the error.  So such a limit is refused at once.
HEADROOM = 16 << 20


def _in_use():
    """Bytes of address space this process uses now (from Linux's /proc), or 0."""
    try:
        with open("/proc/self/status", "rb") as file:
            for line in file:
                if line.startswith(b"VmSize:"):
                    return int(line.split()[1]) << 10
    except (OSError, ValueError, IndexError):
        pass
    return 0


class _OwnBuiltins:
    """While this module does its own work between the learner's code, the
    builtins are the real ones again: a learner's ``builtins.isinstance =
    lambda *a: True`` changes what the learner's code sees, never what is
    reported (nor the JSON encoder's isinstance).  The learner's are put
    back after.

    >>> builtins.ascii = lambda x: "forged"
    >>> with _OwnBuiltins():
    ...     ascii(1)
    '1'
    >>> ascii(1)
    'forged'
    >>> builtins.ascii = _BUILTINS["ascii"]
    """

    def __enter__(self):
        self.theirs = dict(builtins.__dict__)
        builtins.__dict__.update(_BUILTINS)

    def __exit__(self, *error):
        for name in [n for n in builtins.__dict__ if n not in self.theirs]:
            del builtins.__dict__[name]
        builtins.__dict__.update(self.theirs)


class _ExitRaises:
    """While the learner's code runs, os._exit() in this process raises SystemExit.

    So a file that ends with os._exit(0) is graded like one ending with
    exit(); a child process the learner forked still exits for real.
    """

    def __enter__(self):
        worker = os.getpid()

        def _exit_here(code):
            if os.getpid() != worker:
                _exit(code)
            raise SystemExit(code)
        os._exit = _exit_here

    def __exit__(self, *error):
        os._exit = _exit
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except Exception:                       # a learner's closed or odd stream
                pass


class _Watch:
    """While the learner's code runs, an import of the lesson fails, and is noted.

    The checks grade the learner's own functions: the lesson's would pass
    them all.  The watch is a warning, not a guard: it tells a learner who
    imports the lesson to write the functions, and notes it
    ("uses_reference"), also when the learner's code takes the watch off
    ``sys.meta_path`` or imports the lesson past it.  What guards is that
    the lesson is not there: the sandbox hides every copy of it, and a
    user of its own cannot read it on a platform (``lesson.grader.sandbox``).
    In a worker the lesson was never imported.  Where this runs in the
    checker's own process (the tests, the doctests), the lesson's modules
    are set aside meanwhile; the grader's own are left alone.
    """

    used = False

    def find_spec(self, name, path=None, target=None):
        if _is_lesson(name):
            self.used = True
            raise ModuleNotFoundError(HIDDEN, name=name)
        return None

    def __enter__(self):
        self.aside = {name: sys.modules.pop(name) for name in list(sys.modules)
                      if _is_lesson(name)}
        sys.meta_path.insert(0, self)
        return self

    def __exit__(self, *error):
        with _OwnBuiltins():
            if self in sys.meta_path:
                sys.meta_path.remove(self)
            else:                        # the learner took it away, to import the lesson
                self.used = True
            if any(_is_lesson(name) for name in list(sys.modules)):
                self.used = True         # imported past it (the lesson's were set aside)
            sys.modules.update(self.aside)


def _is_lesson(name):
    """Is ``name`` the lesson or one of its modules, other than the grader's?"""
    return (name == LESSON or name.startswith(LESSON + ".")) and not (
        name == GRADER or name.startswith(GRADER + "."))


# --- Tracing a call -------------------------------------------------------------------
#
# After the checks, the checker may ask for one call again, step by step: each
# line of the learner's own code that it ran, in order, with the values it set
# (as futurecoder's snoop and Python Tutor show them).  The verdicts are known
# by then: a trace only shows.  It is bounded here in steps and characters
# (past them, and past a loop's first rounds, steps are counted, not kept) and
# in time (the request's seconds: then it stops and the call goes on untraced),
# and it is plain data.  The steps are the same on every Python from 3.11:
# a step is a statement (a comprehension's rounds, and a loop written on one
# line, are one step), and the frames of comprehensions and lambdas are their
# line's, not steps of their own.

TRACE_REPEATS = 4       # times one line's step is kept (a loop's first rounds); then counted
TRACE_STEPS = 80        # steps one trace keeps at most (its function's return always)
TRACE_CHARS = 8000      # characters of steps (as JSON) one trace keeps at most
TRACE_ITEMS = 64        # numbers a list or array may hold and be kept whole
TRACE_CODE = 60         # characters of a line's code kept
# The builtins the tracer uses, saved: it works while the learner's code runs.
_issubclass, _sorted, _dict = issubclass, sorted, dict
_list, _tuple, _string, _bool, _real, _whole = list, tuple, str, bool, float, int
_NONE = type(None)
_UNCHANGING = (_whole, _real, _bool, _string, _NONE)
_NOT_VALUES = ("module", "function", "builtin_function_or_method", "type", "method",
               "method-wrapper", "wrapper_descriptor")
_NOT_OWN = ("<listcomp>", "<setcomp>", "<dictcomp>", "<genexpr>", "<lambda>")
_STOPPING = ("StopIteration", "StopAsyncIteration", "GeneratorExit")
_STATEMENTS = {}        # {the name code was compiled under: {line: its statement's first line}}


def traced(function, args, kwargs=None, seconds=1.0):
    """Call a learner's function as ``call`` does, step by step: (outcome, trace).

    The trace is plain data: "steps", each step of the learner's own code in
    order, {"line", "where" ('line 8' or 'cell 3, line 2'), "depth" (0 in the
    function called, 1 in a function of the learner's that it calls...)} and,
    where they apply, "set" ([name, value] for each name the step set or
    changed), "calls" (a function of the learner's, with its arguments in
    "set"), "returns" or "yields" (a value), "raised" ({"type", "message"}),
    "folded" (steps not kept, {"steps": how many, "lines": their lines},
    with "set" the last values they left); "code" (each named line's text,
    by its "where"); "runs" (how often each line ran, by its "where"); and
    "cut": None, or why the trace stops early (one of TRACE_CUTS: "time"; "traced": the
    learner's code set a tracer of its own; "error").  Values are
    ``value_shown``'s.

    >>> source = "def f(x):\\n    y = x * 2\\n    return y + 1\\n"
    >>> module, load = load_learner(source, "mine.py")
    >>> outcome, trace = traced(module.f, [0.5])
    >>> outcome["value"], [(s["line"], s.get("set"), s.get("returns")) for s in trace["steps"]]
    (2.0, [(2, [['y', 1.0]], None), (3, None, 2.0)])
    """
    tracer = _Tracer(seconds)
    return call(function, args, kwargs, tracer), tracer.trace()


def value_shown(value, depth=0):
    """A value as a trace keeps it, without running any of the learner's code
    (a __repr__ may raise, loop or lie): None, bools and numbers as they are;
    lists, tuples and NumPy arrays as lists; a list or array of more than
    TRACE_ITEMS numbers as {"other": its type, "len": its size}; a str as
    {"other": "str", "repr": its start}; anything else {"other": its type}.

    >>> value_shown((1, 2.5, [True, None])), value_shown([0.5] * 100)
    ([1, 2.5, [True, None]], {'other': 'list', 'len': 100})
    >>> value_shown("abc"), value_shown(object())
    ({'other': 'str', 'repr': "'abc'"}, {'other': 'object'})
    """
    kind = _type(value)
    if value is None or kind is _bool:
        return value
    if _issubclass(kind, _real):
        return _real.__float__(value)
    if _issubclass(kind, _whole):
        number = _whole.__int__(value)
        return number if -(1 << 63) <= number < 1 << 63 else {"other": "int"}
    if kind is _list or kind is _tuple:
        size = _len(value)
        if depth >= 4 or size > TRACE_ITEMS:
            return {"other": _name_of(kind), "len": size}
        return [value_shown(item, depth + 1) for item in value]
    numpy = sys.modules.get("numpy")
    if numpy is not None and (kind is numpy.ndarray or _issubclass(kind, numpy.generic)):
        if kind is numpy.ndarray and (value.size > TRACE_ITEMS or depth >= 4):
            return {"other": "ndarray", "len": _whole.__int__(value.size)}
        return value_shown(value.tolist(), depth)
    if kind is _string:
        return {"other": "str", "repr": _repr(value[:40]) + ("..." if _len(value) > 40 else "")}
    return {"other": _name_of(kind)}


def _name_of(kind):
    """A class's own name (never a property of a learner's metaclass)."""
    return _type.__dict__["__name__"].__get__(kind)


def _statement_lines(code):
    """{line: the first line of the statement it belongs to}; a compound
    statement's lines are its header's (its body's statements are their own).

    >>> _statement_lines("x = [s\\n     for s in y]\\nfor s in x:\\n    t = s\\n")
    {1: 1, 2: 1, 3: 3, 4: 4}
    """
    import ast
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError):
        return {}
    out = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        body, last = getattr(node, "body", None), node.end_lineno
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            last = max(node.lineno, body[0].lineno - 1)
        for number in range(node.lineno, last + 1):
            out[number] = node.lineno
    return dict(sorted(out.items()))


class _Tracer:
    """sys.settrace's function for one call of the learner's (see ``traced``).

    Nothing it does reaches the learner's code: it calls only what it saved
    before any learner code ran, reads frames, and never raises into them
    (on any error of its own it stops, and says so in "cut").
    """

    def __init__(self, seconds):
        self.seconds, self.end = seconds, None
        self.steps, self.code, self.runs = [], {}, {}
        # frame -> [its depth, the step it is on, {name: (object, shown)}, raising?]
        self.frames = {}
        self.folded = None      # the steps not kept since the last one kept
        self.chars, self.cut, self.error = 0, None, None
        self.function = self.event              # one bound method, to know it again
        self.before = None                      # the tracer before, given back after

    def run(self, function, args, kwargs):
        """``function(*args, **kwargs)``, traced."""
        with _OwnBuiltins():
            for name in list(_LEARNER_CODE):
                if name not in _STATEMENTS:
                    _STATEMENTS[name] = _statement_lines("".join(_LEARNER_CODE[name][1]))
        self.end = _clock() + self.seconds
        self.before = _gettrace()           # a debugger's or coverage's, in the checker's own
        _settrace(self.function)
        try:
            return function(*args, **kwargs)
        finally:
            theirs = _gettrace()
            _settrace(self.before)
            if theirs is not self.function and self.cut is None:
                self.cut = "traced"

    def trace(self):
        """The trace, as plain data (see ``traced``)."""
        if self.folded is not None:
            self.steps.append(self.folded)
        return {"steps": self.steps, "code": self.code, "runs": self.runs, "cut": self.cut}

    def event(self, frame, event, arg):
        if self.cut is not None:
            return None
        try:
            if _clock() > self.end:
                return self._stop("time")
            if event == "call":
                return self._called(frame)
            state = self.frames.get(frame)
            if state is None:
                return None
            if event == "line":
                self._line(frame, state)
            elif event == "exception":
                self._raised(state, arg[1])
            elif event == "return":
                self._returned(frame, state, arg)
            return self.function
        except BaseException:                       # noqa: B036 - never into the learner's code
            return self._stop("error")

    def _stop(self, why):
        self.cut = why
        _settrace(self.before)
        return None

    def _called(self, frame):
        code = frame.f_code
        if code.co_filename not in _LEARNER_CODE or code.co_name in _NOT_OWN:
            return None
        parent = frame.f_back
        while parent is not None and parent not in self.frames:
            parent = parent.f_back
        depth = self.frames[parent][0] + 1 if parent is not None else 0
        state = [depth, None, self._values(frame, {}), False]
        self.frames[frame] = state
        if depth:
            step = self._step(frame, depth)
            self.runs[step["where"]] = self.runs.get(step["where"], 0) + 1
            step["calls"] = code.co_name
            step["set"] = [[name, shown] for name, (_, shown) in _sorted(state[2].items())]
            self._keep(step)
        return self.function

    def _line(self, frame, state):
        step = state[1]
        if step is not None and step["line"] == self._statement(frame)[0]:
            return                                  # the same statement: one step
        state[3] = False                            # an exception raised was caught
        self._finish(frame, state)
        state[1] = self._step(frame, state[0])
        self.runs[state[1]["where"]] = self.runs.get(state[1]["where"], 0) + 1

    def _raised(self, state, error):
        kind = _type(error)
        if state[1] is None or _name_of(kind) in _STOPPING:
            return
        state[3] = True                             # it returns nothing, unless caught
        if error is self.error:                     # raised below, shown there
            return
        self.error = error
        try:
            message = _str(error)[:200]
        except Exception:                           # a learner's broken __str__
            message = ""
        state[1]["raised"] = {"type": _name_of(kind), "message": message}

    def _returned(self, frame, state, value):
        step = state[1] or self._step(frame, state[0])
        if not state[3]:
            generator = frame.f_code.co_flags & 0x220       # CO_GENERATOR, CO_ASYNC_GENERATOR
            step["yields" if generator else "returns"] = value_shown(value)
        state[1] = step
        self._finish(frame, state, keep=state[0] == 0)
        del self.frames[frame]

    def _statement(self, frame):
        """(the first line of the statement the frame is on, its name for the learner)."""
        name = frame.f_code.co_filename
        number = _STATEMENTS.get(name, {}).get(frame.f_lineno, frame.f_lineno)
        return number, _where(number, name)

    def _step(self, frame, depth):
        number, where = self._statement(frame)
        if where not in self.code:
            lines = _LEARNER_CODE[frame.f_code.co_filename][1]
            text = lines[number - 1].strip() if 0 < number <= _len(lines) else ""
            self.code[where] = (text if _len(text) <= TRACE_CODE
                                else text[:TRACE_CODE - 3] + "...")
        return {"line": number, "where": where, "depth": depth}

    def _finish(self, frame, state, keep=False):
        """The step a frame was on is over: note what it changed, keep it or fold it."""
        step = state[1]
        if step is None:
            return
        before, now = state[2], self._values(frame, state[2])
        changed = [[name, shown] for name, (thing, shown) in now.items()
                   if name not in before or not _same(before[name][1], shown)]
        if changed:
            step["set"] = _sorted(changed)
        state[1], state[2] = None, now
        self._keep(step, keep or "raised" in step)

    def _keep(self, step, must=False):
        size = _len(_encode(step))
        runs = self.runs.get(step["where"], 0)
        if must or (runs <= TRACE_REPEATS and _len(self.steps) < TRACE_STEPS
                    and self.chars + size <= TRACE_CHARS):
            if self.folded is not None:
                self.steps.append(self.folded)
                self.folded = None
            self.steps.append(step)
            self.chars += size
            return
        folded = self.folded or {"line": step["line"], "where": step["where"],
                                 "depth": step["depth"], "folded": {"steps": 0, "lines": []},
                                 "set": []}
        folded["folded"]["steps"] += 1
        if step["line"] not in folded["folded"]["lines"]:
            folded["folded"]["lines"] = _sorted(folded["folded"]["lines"] + [step["line"]])
        values = _dict(folded.get("set") or [])
        values.update(step.get("set") or [])
        folded["set"] = [[name, shown] for name, shown in _sorted(values.items())]
        if not folded["set"]:
            del folded["set"]
        self.folded = folded

    def _values(self, frame, before):
        """{name: (object, shown)} for the frame's variables, each shown once
        while it is the same object of a type that cannot change."""
        out = {}
        for name, thing in frame.f_locals.items():
            if name[:1] == "." or name[:2] == "__":
                continue
            kind = _type(thing)
            if _name_of(kind) in _NOT_VALUES:
                continue
            old = before.get(name)
            if old is not None and old[0] is thing and kind in _UNCHANGING:
                out[name] = old
            else:
                out[name] = (thing, value_shown(thing))
        return out


def _same(one, other):
    """Are two shown values the same (nan the same as nan)?"""
    return one == other or _encode(one) == _encode(other)


# --- The worker process --------------------------------------------------------------

def module_name(path):
    """The learner's module name: the file's own, unless another module has it.

    The file's own name lets multiprocessing's spawned processes import it;
    json.py or numpy.py would hide the real one, so those get a plain name.

    >>> module_name("/work/json.py"), module_name("/work/my_softmax.py")
    ('softmax_exercise', 'my_softmax')
    """
    import importlib.util
    import keyword
    name = os.path.splitext(os.path.basename(path))[0]
    try:
        taken = (not name.isidentifier() or keyword.iskeyword(name) or name in sys.modules
                 or name == LESSON or importlib.util.find_spec(name) is not None)
    except (ImportError, ValueError):
        taken = True
    return "softmax_exercise" if taken else name


def load_file(path):
    """Read and load the learner's file at ``path``: (module or None, load)."""
    sys.argv = [path]
    sys.path.append(os.path.dirname(os.path.abspath(path)))   # helpers; never ahead of stdlib
    try:
        with open(path, "rb") as file:
            source, load = read_learner(file.read(), path)
    except OSError as error:                 # no permission to read it, say
        return None, load_record(Load.UNREADABLE, message=error.strerror)
    if source is None:
        return None, load
    return load_learner(source, path, module_name(path))


def set_limits(limits):
    """Limits on this process and all it starts, before any learner code runs:
    {"user": [uid, gid] to become first (root in the sandbox: a user of its
    own, whose processes the kernel counts), "memory": bytes of address
    space, "file_size": bytes one file may have, "processes": how many the
    user may run, "sealed": True for no network, no socket of the machine
    and no kernel keyring (``seal``)}; no core files."""
    try:
        import resource
    except ImportError:                      # the page's Python: the browser limits it
        return
    if limits.get("user"):                   # every power of root's goes with it
        uid, gid = limits["user"]
        os.setgroups([])
        os.setgid(gid)
        os.setuid(uid)
    if limits.get("sealed"):
        seal()
    in_use = _in_use()
    if limits.get("memory") and limits["memory"] < in_use + HEADROOM:   # said while it can be
        raise MemoryError(f"Python uses {in_use >> 20} MiB already, and needs "
                          f"{HEADROOM >> 20} more to load a file")
    wanted = [(resource.RLIMIT_CORE, 0)]
    for key, name in (("memory", "RLIMIT_AS"), ("file_size", "RLIMIT_FSIZE"),
                      ("processes", "RLIMIT_NPROC")):
        if limits.get(key) and hasattr(resource, name):
            wanted.append((getattr(resource, name), int(limits[key])))
    for which, value in wanted:
        soft, hard = resource.getrlimit(which)
        value = value if hard == resource.RLIM_INFINITY else min(value, hard)
        try:
            resource.setrlimit(which, (value, value))
        except (ValueError, OSError):        # below what is in use already: keep the hard one
            resource.setrlimit(which, (min(value, hard) if hard != resource.RLIM_INFINITY
                                       else soft, hard))


def stand_guard():
    """As the sandbox's first process, stay there and let a child go on.

    In bubblewrap's sandbox the worker starts as the first process of the
    sandbox's own process namespace (``--as-pid-1``: no process of
    bubblewrap's is there to be read through /proc or reached).  Such a
    process ignores any signal from inside it has no handler for, and its
    end ends every process in the sandbox.  So it forks: the child goes on
    to be the worker, where a signal ends it as it ends any process.  This
    process makes itself undumpable (its /proc, memory and files closed to
    a process of the same user without the power to trace, which the
    sandbox takes away) before the child may go on, closes every file,
    reaps whatever ends in the sandbox and, when the worker ends, exits as
    it did: its exit code, or 128 and the signal's number, as bubblewrap
    reports a signal.  In the child only: this function returns.
    """
    ready, go = os.pipe()
    worker = os.fork()
    if worker == 0:
        os.close(go)
        os.read(ready, 1)                            # b"": the guard has closed it
        os.close(ready)
        return
    import ctypes                                    # here only: the worker's memory as it was
    ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)      # PR_SET_DUMPABLE: no
    os.closerange(0, 1 << 16)                        # and the worker may go on
    while True:
        try:
            ended, status = os.waitpid(-1, 0)
        except ChildProcessError:                    # cannot be: the worker was here
            _exit(70)
        except InterruptedError:
            continue
        if ended == worker:
            code = os.waitstatus_to_exitcode(status)
            _exit(128 - code if code < 0 else code)


# A seccomp filter (Linux): the system calls that reach past the process,
# and the architectures whose numbers are known.  See ``seal``.
_SEALED_CALLS = {           # machine: (audit arch, socket, sendto, clone, clone3, and the
                            #   refused: connect, bind, sendmsg, sendmmsg, io_uring_setup,
                            #   unshare, setns, add_key, request_key, keyctl)
    "x86_64": (0xC000003E, 41, 44, 56, 435,
               (42, 49, 46, 307, 425, 272, 308, 248, 249, 250)),
    "aarch64": (0xC00000B7, 198, 206, 220, 435,
                (203, 200, 211, 269, 425, 97, 268, 217, 218, 219)),
}
# clone()'s flags that make a namespace: mount, cgroup, UTS, IPC, user, PID, network.
_NEW_NAMESPACES = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 \
    | 0x20000000 | 0x40000000


def seal():
    """From now on, in this process and all it starts: no socket but a Unix
    one (``socketpair``, what multiprocessing and asyncio use), no connect()
    or bind() and no message to an address, so no network and no abstract or
    named socket of the machine; no kernel keyring, which no namespace
    separates (root's keys, say); and no namespace of its own (unshare,
    setns, a clone() that makes one), where a user namespace would give it
    every power over what it then makes, and the kernel's code for them to
    try.  clone3(), whose flags a filter cannot read, says it does not exist,
    so threads and processes are made with clone() as on older kernels.  A
    seccomp filter, which no later code can take off.  Where there is none
    to install (another system, an unknown processor), an OSError: the
    checker's failure, before any learner code runs."""
    import ctypes
    import platform
    numbers = _SEALED_CALLS.get(platform.machine())
    if numbers is None or not sys.platform.startswith("linux"):
        raise OSError(f"no seccomp filter for {sys.platform} on {platform.machine()}")
    arch, socket, sendto, clone, clone3, refused = numbers
    allow, deny = 0x7FFF0000, 0x00050000 | 13         # SECCOMP_RET_ALLOW, _ERRNO | EACCES
    absent = 0x00050000 | 38                          # SECCOMP_RET_ERRNO | ENOSYS
    program = _assembled([                            # seccomp_data: nr at 0, arch at 4,
        ("load", 4), ("if", arch, None, "deny"),      # args at 16 + 8 i; another ABI: refused
        ("load", 0), ("if>=", 0x40000000, "deny", None),              # x32's numbers
        ("if", socket, "socket", None), ("if", sendto, "sendto", None),
        ("if", clone, "clone", None), ("if", clone3, "absent", None),
        *[("if", number, "deny", None) for number in refused],
        ("return", allow),
        ("socket:load", 16), ("if", 1, "allow", "deny"),              # AF_UNIX only
        ("sendto:load", 48), ("if", 0, None, "deny"),                 # to no address
        ("load", 52), ("if", 0, "allow", "deny"),
        ("clone:load", 16), ("if&", _NEW_NAMESPACES, "deny", "allow"),  # its flags
        ("absent:return", absent), ("deny:return", deny), ("allow:return", allow)])

    class Filter(ctypes.Structure):
        _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte),
                    ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint32)]

    class Program(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Filter))]
    filters = (Filter * _len(program))(*[Filter(*step) for step in program])
    libc = ctypes.CDLL(None, use_errno=True)
    if (libc.prctl(38, 1, 0, 0, 0) != 0                           # PR_SET_NO_NEW_PRIVS
            or libc.prctl(22, 2, ctypes.byref(Program(_len(program), filters)), 0, 0) != 0):
        raise OSError(ctypes.get_errno(), "the seccomp filter could not be set")


def _assembled(steps):
    """A classic BPF program from readable steps: ("load", offset), ("if",
    "if>=" or "if&" (any bit of k set), k, label if true, label if false:
    None goes on), ("return", k); "label:" before a step's name names it.
    Jumps count the steps between.

    >>> _assembled([("load", 0), ("if", 1, "yes", None), ("return", 0), ("yes:return", 1)])
    [(32, 0, 0, 0), (21, 1, 0, 1), (6, 0, 0, 0), (6, 0, 0, 1)]
    """
    labels = {step[0].split(":")[0]: index for index, step in enumerate(steps) if ":" in step[0]}
    codes = {"load": 0x20, "if": 0x15, "if>=": 0x35, "if&": 0x45, "return": 0x06}
    out = []
    for index, (name, k, *targets) in enumerate(steps):
        name = name.split(":")[-1]
        jumps = [labels[t] - index - 1 if t else 0 for t in targets] or [0, 0]
        out.append((codes[name], jumps[0], jumps[1], k))
    return out


def unpack(files):
    """Write a submission's files ({relative path: base64 of its bytes}) here."""
    import base64
    here = os.getcwd()
    for name, data in files.items():
        path = os.path.normpath(os.path.join(here, name))
        if not path.startswith(here + os.sep):
            continue                         # never outside the submission's folder
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))


def answer(module, request):
    """The reply to one request {"token", "function", "args", "kwargs"}: {"token", "outcome"};
    a request with "trace" (seconds) is traced, and its reply has the "trace" too."""
    with _OwnBuiltins():
        function = getattr(module, request["function"], None)
        missing = not callable(function)
    if missing:
        return {"token": request["token"], "outcome": outcome_record(missing=True)}
    if request.get("trace"):                 # the same call again, step by step (seconds)
        outcome, trace = traced(function, request["args"], request["kwargs"], request["trace"])
        return {"token": request["token"], "outcome": outcome, "trace": trace}
    return {"token": request["token"],
            "outcome": call(function, request["args"], request["kwargs"])}


_TRIAL = "import math\n\ndef softmax(x):\n    return [math.exp(s) for s in x]\n"


def _try_out():
    """Load and call a small file of the checker's own, as the learner's will
    be, and encode the reply: under limits too small for Python this fails
    before the worker's hello, as the checker's failure."""
    import importlib.util, keyword, tokenize  # noqa: E401,F401 - what loading needs
    source, _ = read_learner(_TRIAL.encode(), "trial.py")
    module, _ = load_learner(source, "trial.py", "lesson_trial")
    _encode(answer(module, {"token": "", "function": "softmax", "args": [[1.0]], "kwargs": {}}))
    sys.modules.pop("lesson_trial", None)
    _LEARNER_CODE.pop("trial.py", None)
    linecache.cache.pop("trial.py", None)


def serve(replies, requests):
    """The worker process: unpack and load the submission, then answer each request.

    Requests come one JSON line at a time on the file descriptor
    ``requests``; replies go, one JSON line each, to ``replies``.  The first
    request is the submission: {"files", "main", "limits", "sites"}.  Once
    its limits are set and its files written, the worker says ``HELLO``,
    then loads the file and replies {"load": ...}: a worker that stops
    before its hello failed to start (the sandbox, or a memory limit too
    small for Python), which is the checker's failure, never the learner's.
    Each later request waits for the checker, so all that one call printed
    is in the output pipes before the next starts.
    """
    if os.getpid() == 1:
        stand_guard()
    os.set_inheritable(replies, False)
    os.set_inheritable(requests, False)
    pending = [b""]

    def send(message):
        with _OwnBuiltins():
            data = (_encode(message) + "\n").encode()
        while data:
            data = data[_write(replies, data):]

    def receive():
        while b"\n" not in pending[0]:
            data = _read(requests, 1 << 16)
            if not data:
                _exit(0)                              # the checker has gone
            pending[0] += data
        line, pending[0] = pending[0].split(b"\n", 1)
        return _decode_json(line.decode())
    try:
        submission = receive()
        set_limits(submission["limits"])
        for folder in submission.get("sites", []):
            site.addsitedir(folder)        # the user's site-packages: the worker's home is its own
        unpack(submission["files"])
        _try_out()
    except BaseException as error:         # noqa: B036 - the checker's failure: say why
        try:
            said = f"{HARNESS_SAYS}{_type(error).__name__}: {error}"[:300].encode(
                errors="replace")
        except MemoryError:                # no room left even for the words
            said = NO_ROOM
        _write(2, said)
        _exit(70)
    try:
        send(HELLO)                        # from here on, the learner's code runs
        module, load = load_file(submission["main"])    # as the learner names it: cwd holds it
        send({"load": load})
        while module is not None:
            send(answer(module, receive()))
    except BaseException:                  # noqa: B036 - never show our own traceback
        _exit(70)
    _exit(0)


# --- The page's learner worker -------------------------------------------------------

_HERE = {}


def load_here(path):
    """The page's learner worker: load the file, keep it, and return the reply's JSON."""
    _HERE["module"], load = load_file(path)
    return _encode({"load": load})


def answer_here(request):
    """The page's learner worker: the reply, as JSON, to one request's JSON."""
    return _encode(answer(_HERE["module"], _decode_json(request)))


LONGEST_WAIT = 10 ** 6      # seconds: a sleep longer than this goes to Python's own


def sleep_with(wait):
    """The page's learner worker: ``time.sleep`` waits with ``wait(milliseconds)``
    (the page's Atomics.wait), where Pyodide's own sleep spins a core until the
    time is up.  A file that sleeps for ever is stopped at its time limit either
    way; this one leaves the learner's core idle meanwhile.  A length Python's
    own sleep refuses, or anything but a plain number, still goes to it.
    """
    import time
    own = time.sleep

    def sleep(seconds):
        if type(seconds) in (int, float) and 0 <= seconds <= LONGEST_WAIT:
            wait(seconds * 1000)
        else:
            own(seconds)
    sleep.__doc__, sleep.__name__ = own.__doc__, own.__name__
    time.sleep = sleep


# ``python -E harness.py REPLIES REQUESTS``: Python puts this file's
# folder (the grader's) first on sys.path.  Take it off, so the learner's
# imports find the standard library and site-packages, then the learner's
# own folder (load_file adds it last).
if __name__ == "__main__":
    if sys.path and os.path.abspath(sys.path[0] or ".") == os.path.dirname(
            os.path.abspath(__file__)):
        del sys.path[0]
    serve(int(sys.argv[1]), int(sys.argv[2]))

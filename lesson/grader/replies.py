"""What a worker says, believed only in the shapes the harness writes.

load(record)       the load record, or a "garbled" one if it is not in its shape
outcome(record)    whether an outcome is in its shape
trace(record)      whether a trace is in its shape
SHAPES             every shape, by name: what the tests draw their forgeries from

A worker runs the learner's code in its own process, so after its hello any
line it sends may be the learner's: their code can reach the private pipe,
or replace the harness's functions.  The checker therefore reads every reply
against the shapes below, which say, key by key, what ``harness`` writes
(``LoadRecord``, ``OutcomeRecord``, ``error_info``, ``plain``,
``value_shown``, a trace).  A reply in any other shape is garbled: that
file's own doing, judged as such.  So is a load of a status only the
checker gives: a time-out or a crash, and above all its own failure
("unstarted", "internal"), which stops a whole class with the message the
file chose, were it taken from a worker.

    >>> load({"status": "ok"})
    {'status': 'ok'}
    >>> load({"status": "unstarted", "message": "bwrap: rerun with --no-sandbox"})
    {'status': 'garbled'}
    >>> outcome({"value": [0.5, 0.5]}), outcome({"value": {"other": 5}})
    (True, False)
"""

from lesson.grader.harness import TRACE_CUTS, Load, Outcome, load_record


DEEPEST = 32     # records and lists nested deeper than this are no reply of the harness's


class Shape:
    """What a value must be: ``fits(value)``, at ``depth`` records and lists down."""

    def fits(self, value, depth=0):
        raise NotImplementedError


class Kind(Shape):
    """A value of exactly this JSON type (an int is never a bool here)."""

    def __init__(self, *types):
        self.types = types

    def fits(self, value, depth=0):
        return type(value) in self.types


class Within(Shape):
    """A whole number, low <= n < high: a line, a depth, a count."""

    def __init__(self, low, high):
        self.low, self.high = low, high

    def fits(self, value, depth=0):
        return type(value) is int and self.low <= value < self.high


class Among(Shape):
    """A string, one of these."""

    def __init__(self, values):
        self.values = frozenset(values)

    def fits(self, value, depth=0):
        return type(value) is str and value in self.values


class Either(Shape):
    """Any one of the shapes."""

    def __init__(self, *shapes):
        self.shapes = shapes

    def fits(self, value, depth=0):
        return any(shape.fits(value, depth) for shape in self.shapes)


class ListOf(Shape):
    """A list, each item of the shape."""

    def __init__(self, item):
        self.item = item

    def fits(self, value, depth=0):
        return (type(value) is list and depth < DEEPEST
                and all(self.item.fits(item, depth + 1) for item in value))


class MapOf(Shape):
    """A dict from strings to values of the shape."""

    def __init__(self, item):
        self.item = item

    def fits(self, value, depth=0):
        return (type(value) is dict and depth < DEEPEST
                and all(type(k) is str and self.item.fits(v, depth + 1)
                        for k, v in value.items()))


class Record(Shape):
    """A dict with every ``needed`` key and no key but those and the
    ``optional`` ones, each of its shape; of ``one_of``'s keys, exactly one."""

    def __init__(self, needed, optional=None, one_of=()):
        self.needed, self.optional, self.one_of = needed, optional or {}, one_of

    def fits(self, value, depth=0):
        if type(value) is not dict or depth >= DEEPEST or not self.needed.keys() <= value.keys():
            return False
        if self.one_of and sum(key in value for key in self.one_of) != 1:
            return False
        shapes = {**self.optional, **self.needed}
        return all(key in shapes and shapes[key].fits(item, depth + 1)
                   for key, item in value.items())


class Pair(Shape):
    """[a name, a value of the shape]: what a trace's step "set"."""

    def __init__(self, item):
        self.item = item

    def fits(self, value, depth=0):
        return (type(value) is list and len(value) == 2 and type(value[0]) is str
                and self.item.fits(value[1], depth + 1))


class Named(Shape):
    """The shape of that name in SHAPES: for shapes that hold themselves."""

    def __init__(self, name):
        self.name = name

    def fits(self, value, depth=0):
        return SHAPES[self.name].fits(value, depth)


TEXT, FLAG, NONE, NUMBER = Kind(str), Kind(bool), Kind(type(None)), Kind(int, float)
COUNT = Within(0, 1 << 31)          # a line, a depth, how many: never what a page cannot hold
LINE, WHERE = Either(COUNT, NONE), Either(TEXT, NONE)
SYNTAX = {"line": LINE, "where": WHERE, "message": TEXT, "code": TEXT}


def _load(status, needed=None, optional=None):
    """A load record of this status: its fields, and "uses_reference" maybe."""
    return Record({"status": Among([status]), **(needed or {})},
                  {"uses_reference": FLAG, **(optional or {})})


SHAPES = {
    # error_info(): an exception as plain data
    "error_info": Record({"type": TEXT, "kinds": ListOf(TEXT), "message": TEXT, "line": LINE,
                          "where": WHERE, "code": TEXT},
                         {"memory_limit": Either(Within(0, 1 << 63), NONE)}),
    # plain(): a result; anything but numbers, bools and lists {"other", "repr"}
    "plain": Either(NONE, FLAG, NUMBER, Record({"other": TEXT, "repr": TEXT}),
                    ListOf(Named("plain"))),
    # value_shown(): a value in a trace
    "shown": Either(NONE, FLAG, NUMBER, Record({"other": TEXT}, {"repr": TEXT, "len": COUNT}),
                    ListOf(Named("shown"))),
    # load_record() from a worker: the statuses its harness gives, each with its
    # fields; never one only the checker gives (a time-out, a crash, its own failure)
    "load_record": Either(
        _load(Load.OK, optional={"exited": Named("error_info"), "cells": ListOf(Named("cell"))}),
        _load(Load.SYNTAX, SYNTAX), _load(Load.ERROR, {Outcome.ERROR: Named("error_info")}),
        _load(Load.NOT_TEXT, {"line": LINE, "where": WHERE, "message": TEXT}),
        _load(Load.NOT_PYTHON, {"kind": TEXT}), _load(Load.NOT_NOTEBOOK),
        _load(Load.UNREADABLE, {"message": TEXT})),
    # a notebook's cell that failed, the others having run
    "cell": Either(_load(Load.SYNTAX, SYNTAX),
                   _load(Load.ERROR, {Outcome.ERROR: Named("error_info")})),
    # call(): exactly one of value, error, missing
    "outcome_record": Record({}, {Outcome.VALUE: Named("plain"),
                                  Outcome.ERROR: Named("error_info"),
                                  Outcome.MISSING: FLAG, "uses_reference": FLAG},
                             one_of=(Outcome.VALUE, Outcome.ERROR, Outcome.MISSING)),
    # a trace's step
    "step": Record({"line": COUNT, "where": TEXT, "depth": COUNT},
                   {"set": ListOf(Pair(Named("shown"))), "calls": TEXT,
                    "returns": Named("shown"), "yields": Named("shown"),
                    "raised": Record({"type": TEXT, "message": TEXT}),
                    "folded": Record({"steps": COUNT, "lines": ListOf(COUNT)})}),
    # traced()'s trace
    "trace": Record({"steps": ListOf(Named("step")), "code": MapOf(TEXT),
                     "runs": MapOf(COUNT), "cut": Either(NONE, Among(TRACE_CUTS))}),
}


def load(record):
    """The worker's load record, or a garbled one in its place."""
    return dict(record) if SHAPES["load_record"].fits(record) else load_record(Load.GARBLED)


def outcome(record):
    """Whether a call's outcome is in the shape ``harness.call`` gives it."""
    return SHAPES["outcome_record"].fits(record)


def trace(record):
    """Whether a trace is in the shape ``harness.traced`` gives it."""
    return SHAPES["trace"].fits(record)

"""The exercise's grader: ``python -m lesson starter`` and ``python -m lesson check``.

One module per job:

contract   the starter file, the checks as data, the time and output limits
harness    loading and calling a learner's code (the only part that runs it;
           it imports nothing of the lesson, and runs in a worker process or
           in the page's learner Web Worker)
judge      the learner's outcomes against the lesson's own answers
plan       what to do next, given what has happened: every rule of time, of
           checks not run, and of the file's budget
report     the report's lines, the teacher's summary, and how lines wrap
process    the plan carried out with worker processes, for the terminal
page       the plan carried out in the Exercises page (run by its judge worker)
"""

"""The exercise's grader: ``python -m lesson starter`` and ``python -m lesson check``.

One module per job:

contract   the starter file, the checks as data (fresh inputs from a seed), each kind
           of check's right answer, pass rule and wanted text, the limits
compare    what counts as the same answer: numbers to one tolerance, shapes, errors
harness    loading and calling a learner's code, and tracing a call step by step
           (the only part that runs it; it imports nothing of the lesson, and runs
           in a worker process or in the page's learner Web Worker)
judge      the learner's outcomes against the lesson's own answers
steps      the lesson's steps for a failed check's input, beside the learner's traced
           ones, and the first of the learner's values they do not contain
trace_text a traced check as the report shows it, every value as text
mistakes   the usual wrong answers as data: each mistake's answer and words, each
           sign a value shows
diagnosis  which of them a function's answers (and code) prove: the names found, and
           the hint, in the code's dialect
reading    what a learner's code shows, read with ast and never run: facts for the hints
plan       what to do next, given what has happened: every rule of time, of
           checks not run, and of the file's budget
report     the report as records (verdicts, the learner's lines, links), every
           output's one source; its text, the teacher's summary, and how lines wrap
problems   what went wrong, in words: a file that did not load, a crash, an exception
links      where the site teaches each function, and its solution
process    the plan carried out with worker processes, for the terminal
snapshot   a submission read once, before anything runs: regular files only, no
           link out of it
sandbox    where a learner's code runs, denying by default: bubblewrap's sandbox
           built up from nothing, else a user of its own, else (said) none;
           what each protects and what it cannot
places     where the Python running the checker lives, and every copy of the lesson
bubblewrap the sandbox: what it shows of the machine, what it hides, how it starts
users      a user of its own for each worker, the lesson denied to it, none left after
workers    the worker processes, and the reaping that leaves none of theirs behind
classroom  a class's submissions: found in folders, read at once, graded side by side
session    one run of `check`: the files graded, and what its format prints
page       the plan carried out in the Exercises page (run by its judge worker)
formats    the grading platforms' documents: Gradescope, PrairieLearn, Exercism, JUnit
bundle     what the platforms run: Gradescope's zip, Exercism's and PrairieLearn's runners
wheel      the lesson as a wheel, the one builder (the site's download, the Gradescope zip)
"""

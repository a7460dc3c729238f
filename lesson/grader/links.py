"""Where the site teaches what the checker checks: addresses for the report.

Data only.  Each address is relative to the site's root (the built site
has one HTML file per page, ``use_directory_urls: false``), so a report on
the Exercises page can link to it as it is.  ``tests/test_solution.py``
checks that every page and anchor here exists in the built site.
"""

# The whole solution of the exercise, behind a "Show a solution" reveal;
# docs/assets/solution/softmax_exercise.py is the file it shows.
SOLUTION = "exercises.html#a-solution"

# The part of the lesson that teaches each of the exercise's functions.
LESSON_PARTS = {
    "softmax": "in-code.html#softmax",
    "naive_softmax": "in-code.html#naive-softmax",
    "rows_normalised": "in-code.html#rows-normalised",
    "entropy": "in-code.html#entropy",
}

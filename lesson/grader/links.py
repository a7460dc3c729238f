"""Where the site teaches what the checker checks: addresses for the report.

Data, and ``address``.  Each address is relative to the site's root (the built site
has one HTML file per page, ``use_directory_urls: false``), so a report on
the Exercises page can link to it as it is.  ``tests/test_solution.py``
checks that every page and anchor here exists in the built site.
"""

# Where the site is published ("https://.../", ending in "/"), the one place
# that says it: the report's links start with it, so a terminal's report
# names a whole address.  None while the site has no public address (the
# links are then relative, as the site's own pages need them); mkdocs.yml's
# site_url, where it is set, must be the same (tests/test_solution.py).
SITE = None


def address(page, site=None):
    """A page's address as the report gives it: the site's, then the page.

    >>> address("exercises.html#a-solution", "https://example.org/softmax/")
    'https://example.org/softmax/exercises.html#a-solution'
    >>> address("exercises.html#a-solution", "")
    'exercises.html#a-solution'
    """
    site = SITE if site is None else site
    return (site or "") + page


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

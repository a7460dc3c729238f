"""Where the site teaches what the checker checks: addresses for the report.

Data, ``address`` and ``place``.  Each address is relative to the site's root
(the built site has one HTML file per page, ``use_directory_urls: false``),
so a report on the Exercises page can link to it as it is.  A terminal's
report names each place as a learner finds it: the whole address where the
site has one (``SITE``), else the page's title and the section's heading, as
the site's navigation and the page's contents name them (a learner who has
only the lesson's wheel has no site beside it to resolve a relative link).
``tests/test_solution.py`` checks that every page, anchor, title and heading
here exists in the built site.
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


# Each address's page title (the site's navigation) and section heading (the
# page's contents), for a report to name where the site has no address.
PLACES = {
    SOLUTION: ("Exercises", "A solution"),
    LESSON_PARTS["softmax"]: ("In code", "softmax(x, axis=-1)"),
    LESSON_PARTS["naive_softmax"]: ("In code", "naive_softmax(x): the version that breaks"),
    LESSON_PARTS["rows_normalised"]: ("In code", "rows_normalised(W, tol=1e-9)"),
    LESSON_PARTS["entropy"]: ("In code", "entropy(w)"),
}


def place(page, site=None):
    """(what a report shows for a place, the address it links to on the site).

    >>> place("exercises.html#a-solution", "https://example.org/softmax/")[0]
    'https://example.org/softmax/exercises.html#a-solution'
    >>> place("exercises.html#a-solution", "")
    ('Exercises \u203a A solution', 'exercises.html#a-solution')
    """
    site = SITE if site is None else site
    if site:
        return address(page, site), address(page, site)
    title, section = PLACES[page]
    return f"{title} \u203a {section}", page

"""The tests' plugins, each a module of its own, and what pytest must not collect.

plugin_scheduling   how pytest-xdist shares the tests out; markers given by file;
                    --file-durations
plugin_fixtures     the shared fixtures (the built site, the docs' cache, rng),
                    bytecode and Hypothesis's profile
plugin_browser      headless Chromium and the site's pages in it

Helpers shared between test files are in tests/helpers.py, imported by name.
"""

from plugin_browser import (browser, contexts, inspected, open_page, shots,  # noqa: F401
                            untouched)
from plugin_fixtures import (built_site, docs_cache, pytest_collection_finish,  # noqa: F401
                             pytest_make_collect_report, rng, zensical_site)
from plugin_scheduling import (pytest_addoption, pytest_collection_modifyitems,  # noqa: F401
                               pytest_runtest_protocol, pytest_terminal_summary,
                               pytest_xdist_auto_num_workers, pytest_xdist_make_scheduler)

# Learners' files: graded by the checker, never imported by pytest (some have
# syntax errors, never finish loading, call input(), exit or fork).
collect_ignore_glob = ["learner_corpus/*", "mistakes/*", "hostile_class/*", "confinement/*",
                       "traced/*"]

"""MkDocs hook: the "page not found" page works opened from disk.

MkDocs writes every link and asset path of ``404.html`` as an absolute path
(``/assets/...``), so that a web server can show it for a missing page at any
depth.  Opened from disk, ``/assets`` is the root of the file system: the page
comes up with no styles, no scripts and dead links.  This site is built to be
read offline, and its pages all sit at the top level (``use_directory_urls:
false``), so ``404.html`` gets the same relative paths as every other page.
"""

import re

# href="/x" and src="/x" (not "//host/x"); in the theme's JSON settings,
# {"base": "/"} and {"search": "/assets/..."} (the search worker).
ABSOLUTE = re.compile(r'\b(href|src)="/(?!/)')
THEME_BASE = '"base": "/"'
THEME_PATH = re.compile(r'(": )"/(?!/)')


def on_post_template(output, template_name, config):
    """Make the paths in ``404.html`` relative to the site's top folder."""
    if template_name != "404.html":
        return output
    output = ABSOLUTE.sub(r'\1="./', output.replace(THEME_BASE, '"base": "."'))
    return THEME_PATH.sub(r'\1"./', output)

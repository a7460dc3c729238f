"""The lesson as a wheel, offered for download by its own site.

``{{ download }}`` on a page (the home page and the Exercises page) becomes
the getting-started box: a "Download the lesson" link to
``download/<the wheel>`` and the commands that install it into a venv,
write the starter and check it.  A learner who found the site needs nothing
else.  Where ``mkdocs.yml`` names a ``repo_url``, the box also says to clone it.

The wheel is the one ``lesson.grader.wheel`` builds (the Gradescope bundle
carries the same): the ``lesson`` package, with every subpackage, and the
installed distribution's metadata with its ``softmax-lesson`` script;
nothing else: not this folder (``lesson_docs``), not the tests.  It is kept
in ``.cache/wheel/`` under a hash of what goes in, so ``mkdocs serve``
writes it again only when ``lesson/`` (or the metadata) changed.

How the wheel gets into the built site:

- MkDocs: this file is also a hook (``hooks:`` in ``mkdocs.yml``).
  ``on_files`` adds the wheel to the site's files, so ``--strict`` checks
  the link like any other.
- Zensical runs Markdown extensions but no MkDocs hooks: there, the
  placeholder itself copies the wheel into Zensical's site folder while
  Zensical renders the page (:func:`copy_into_zensical_site`).  A rebuild
  from Zensical's cache (without ``--clean``) renders no unchanged page, so
  it runs no placeholder: into an emptied site folder it copies no wheel.
  ``zensical build --clean``, as the tests run it, always does.
"""

import hashlib
import os
import pathlib
import re
import shutil
import sys
import threading
import zipfile

import lesson.grader.wheel

ROOT = pathlib.Path(__file__).resolve().parents[2]
CACHE = ROOT / ".cache" / "wheel"
FOLDER = "download"                 # in the site, beside the pages
TEXT = "Download the lesson"        # the link's text

_LOCK = threading.Lock()            # Zensical may render two pages at once


def wheel():
    """The learner's wheel, written now if what goes into it changed: its path."""
    digest = hashlib.sha256()
    for name, data in lesson.grader.wheel.files().items():
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    folder = CACHE / digest.hexdigest()[:16]
    with _LOCK:
        path = folder / lesson.grader.wheel.name()
        if not path.is_file():
            lesson.grader.wheel.build(folder)
        return path


def pythons(path):
    """The Pythons the wheel installs on, in words, from its ``Requires-Python``."""
    with zipfile.ZipFile(path) as archive:
        name = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
        metadata = archive.read(name).decode()
    spec = re.search(r"^Requires-Python: *(.+?)\s*$", metadata, re.M).group(1)
    oldest = re.fullmatch(r">= *([0-9.]+)", spec)
    return f"Python {oldest.group(1)} or newer" if oldest else f"Python {spec}"


def site_setting(name):
    """A top-level setting of the ``mkdocs.yml`` being built, or None.

    MkDocs and Zensical both run in the folder of ``mkdocs.yml`` (as
    ``pyodide_assets.runtime_folder`` assumes); YAML tags such as ``!ENV``
    read as None.
    """
    import yaml                     # MkDocs, Zensical and pymdown-extensions need PyYAML

    class Loader(yaml.SafeLoader):
        pass
    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    here = pathlib.Path.cwd() / "mkdocs.yml"
    config = here if here.is_file() else ROOT / "mkdocs.yml"
    return (yaml.load(config.read_text(encoding="utf-8"), Loader=Loader) or {}).get(name)


def download():
    """The getting-started box's Markdown: the wheel's link, then its commands."""
    path = wheel()
    copy_into_zensical_site(path)
    repo = site_setting("repo_url")
    clone = (f"\n\nOr clone [the lesson's repository]({repo}) and follow its README: "
             "it also builds this site and runs the lesson's tests." if repo else "")
    return f"""\
[{TEXT}]({FOLDER}/{path.name}){{ .md-button .md-button--primary }}

The download ({path.stat().st_size / 1000:.0f} kB) is the lesson's Python
package, for {pythons(path)}, with nothing else to install. In the folder
where you saved it:

```sh
python3 -m venv lesson-venv && . lesson-venv/bin/activate
python -m pip install {path.name}
softmax-lesson starter
softmax-lesson check softmax_exercise.py
```

`starter` writes `softmax_exercise.py`, the four functions you are to write;
`check` checks them (every check fails until you do). While the venv is
active, `softmax-lesson` works from any folder (`softmax-lesson --help`
lists its commands); in a new terminal, activate it again. The checker runs
on Linux and macOS; on Windows, run these in WSL.{clone}"""


def zensical_site():
    """The site folder of the Zensical build that is running, or None (MkDocs)."""
    config = sys.modules.get("zensical.config")
    try:
        settings = config.get_config() if config else None
    except NameError:               # imported, but no configuration read yet
        return None
    return pathlib.Path(settings["root_dir"], settings["site_dir"]) if settings else None


def copy_into_zensical_site(path):
    """Under Zensical, put the wheel where the box links it."""
    site = zensical_site()
    if site is None:
        return
    target = site / FOLDER / path.name
    with _LOCK:
        if not target.is_file() or target.read_bytes() != path.read_bytes():
            target.parent.mkdir(parents=True, exist_ok=True)
            part = target.with_name(target.name + f".{os.getpid()}.part")
            shutil.copyfile(path, part)
            os.replace(part, target)


# --- MkDocs hook ---------------------------------------------------------------

def on_files(files, config):
    """Add the wheel to the site's files, at the path the box links."""
    from mkdocs.structure.files import File

    path = wheel()
    files.append(File.generated(config, f"{FOLDER}/{path.name}", abs_src_path=str(path)))
    return files

"""lesson_docs: the code that builds the lesson's site (not part of the lesson).

Installed from this folder by ``pip install -e ".[docs]"`` so that MkDocs and
Zensical can load its Markdown extension, ``lesson_docs.lesson_markdown``.
"""

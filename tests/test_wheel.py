"""lesson/grader/wheel.py: the lesson as a wheel, the one builder for the
site's download and the platforms' bundles.

The wheel the site offers, and a learner installing it into a fresh venv,
are in test_download.py; the Gradescope zip that carries it in test_bundle.py.
"""

import base64
import hashlib
import os
import zipfile

import pytest

from lesson.grader import wheel
from lesson_docs import lesson_wheel


def test_one_builder_makes_the_site_s_wheel_and_the_gradescope_bundle_s(tmp_path):
    """The Gradescope zip carries the very wheel the site offers, byte for byte."""
    from lesson.grader import bundle
    bundle.write_gradescope_zip(str(tmp_path / "autograder.zip"))
    with zipfile.ZipFile(tmp_path / "autograder.zip") as archive:
        assert archive.read(lesson_wheel.wheel().name) == lesson_wheel.wheel().read_bytes()


def test_without_an_installed_lesson_the_builder_says_how_to_install_it(monkeypatch):
    from importlib import metadata
    monkeypatch.setattr(metadata, "distributions", lambda **kwargs: iter(()))
    with pytest.raises(ValueError, match=r"the lesson is not installed.*pip install -e \."):
        wheel.files()


def test_the_same_bytes_each_time_every_file_dated_1980(tmp_path):
    """So a cache can keep it, and two builds of one lesson are one wheel."""
    first = wheel.archive()
    assert wheel.archive() == first
    with zipfile.ZipFile(wheel.build(tmp_path)) as archive:
        assert {info.date_time for info in archive.infolist()} == {wheel.EPOCH}


def test_record_lists_every_file_with_its_hash_and_size():
    """PEP 376's RECORD, as pip checks it: each file's urlsafe SHA-256 and
    length, RECORD itself last with neither."""
    files = wheel.files()
    record = f"{wheel.info_folder()}/RECORD"
    assert list(files)[-1] == record
    rows = [line.split(",") for line in files[record].decode().splitlines()]
    assert [name for name, _, _ in rows] == list(files)
    assert rows[-1] == [record, "", ""]
    for name, digest, size in rows[:-1]:
        data = files[name]
        expected = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
        assert (digest, int(size)) == (f"sha256={expected.decode()}", len(data)), name


def test_build_writes_the_wheel_whole_under_its_pep_427_name(tmp_path):
    folder = tmp_path / "no" / "such" / "folder"                  # made as it goes
    path = wheel.build(str(folder))
    assert path == os.path.join(str(folder), wheel.name())
    assert wheel.name().endswith("-py3-none-any.whl") and os.listdir(folder) == [wheel.name()]
    with open(path, "rb") as file:
        assert file.read() == wheel.archive()
    with zipfile.ZipFile(path) as archive:
        assert archive.testzip() is None and archive.namelist() == list(wheel.files())

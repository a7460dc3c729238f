"""LaTeX to MathML for the lesson's pages, with TeX's spacing where browsers lack it.

``latex2mathml`` turns the LaTeX into MathML, which browsers draw with no
script and no network.  Its output follows the LaTeX token by token, and
MathML Core (what Chromium and Firefox draw) then spaces three things unlike
TeX; :func:`mathml` mends them in the MathML tree:

* function names such as ``\\ln`` and ``\\max`` get no space from their
  argument (``lnw``), and ``\\max`` is an ``<mo>`` spaced like a relation on
  both sides.  They become ``<mi>`` with U+2061 FUNCTION APPLICATION after
  them and a thin space where TeX puts one;
* a unary minus or plus (``[-1000, -1000]``, ``= -x``) is spaced like a binary
  one.  It gets no space, and is grouped with its operand, as TeX does;
* ``\\infty`` is an ``<mo>`` and so gets operator space; it becomes ``<mi>``.
"""

import html
import re
import xml.etree.ElementTree as ET

from latex2mathml.converter import convert

NAMESPACE = ' xmlns="http://www.w3.org/1998/Math/MathML"'
THIN_SPACE = "0.1667em"
FUNCTION_APPLICATION = "\u2061"
SIGNS = {"\u2212", "+", "\u00b1"}
CLOSING = {")", "]", "}", "|", "\u2016", "\u27e9"}
SCRIPTS = {"msub", "msup", "msubsup", "munder", "mover", "munderover"}


def mathml(tex, display):
    """MathML for ``tex`` (HTML-escaped, as Arithmatex leaves it): inline or block."""
    tex = html.unescape(tex).strip()
    markup = convert(tex, display=display)
    root = ET.fromstring(markup.replace(NAMESPACE, "", 1))
    respace(root)
    root.set("alttext", tex)
    root.set("xmlns", NAMESPACE.split('"')[1])
    return ET.tostring(root, encoding="unicode")


def respace(element):
    """Mend the spacing of ``element`` and everything in it, in place."""
    for child in element:
        respace(child)
        if child.tag == "mo" and _is_name(child.text):
            child.tag = "mi"                            # \max, \operatorname{...}
        elif child.tag == "mo" and child.text == "\u221e":
            child.tag = "mi"                            # \infty is a symbol
    if element.tag in SCRIPTS or element.tag == "mfrac" or element.tag == "mroot":
        return                                          # fixed roles: base, script
    _space_function_names(element)
    _group_unary_signs(element)


def _is_name(text):
    return bool(text) and len(text) > 1 and text.isalpha()


def _is_function(element):
    """A function name (``ln``, ``max``), or one with limits or scripts."""
    if element.tag in SCRIPTS:
        return _is_function(element[0])
    return element.tag == "mi" and _is_name(element.text)


def _is_operator(element):
    """An operator, or one carrying scripts (an embellished operator)."""
    if element.tag in SCRIPTS:
        return _is_operator(element[0]) or _is_function(element)
    return element.tag == "mo" or _is_function(element)


def _space(width=THIN_SPACE):
    return ET.Element("mspace", width=width)


def _previous(row, index):
    """The sibling before ``index``, skipping explicit spaces."""
    for element in reversed(row[:index]):
        if element.tag != "mspace":
            return element
    return None


def _space_function_names(row):
    """``0 ln 0`` -> ``0 ln⁡ 0`` with thin spaces, ``= max_j s_j`` tightened."""
    index = 0
    while index < len(row):
        element = row[index]
        if not _is_function(element):
            index += 1
            continue
        before = _previous(row, index)
        if before is not None and not _is_operator(before):
            row.insert(index, _space())
            index += 1
        after = row[index + 1] if index + 1 < len(row) else None
        if after is not None:
            apply = ET.Element("mo")
            apply.text = FUNCTION_APPLICATION
            row.insert(index + 1, apply)
            index += 1
            if not _is_operator(after):
                row.insert(index + 1, _space())
                index += 1
        index += 1


def _group_unary_signs(row):
    """A sign with no operand before it: no space, and one group with its operand."""
    index = 0
    while index < len(row):
        sign = row[index]
        before = _previous(row, index)
        unary = (sign.tag == "mo" and sign.text in SIGNS and index + 1 < len(row)
                 and (before is None or (_is_operator(before) and before.text not in CLOSING)))
        if unary and len(row) > 2 and not _is_operator(row[index + 1]):
            sign.set("lspace", "0")
            sign.set("rspace", "0")
            group = ET.Element("mrow")
            group.extend([sign, row[index + 1]])
            row.remove(group[0])
            row.remove(group[1])
            row.insert(index, group)
        elif unary:
            sign.set("lspace", "0")
            sign.set("rspace", "0")
        index += 1


# --- Math written for Arithmatex, in a page's HTML --------------------------

BLOCK_MATH = re.compile(r'<div class="arithmatex">\s*\\\[(.*?)\\\]\s*</div>', re.S)
INLINE_MATH = re.compile(r'<span class="arithmatex">\\\((.*?)\\\)</span>', re.S)


def replace_math(content):
    """Every ``\\(...\\)`` and ``\\[...\\]`` that Arithmatex marked, as MathML."""
    content = BLOCK_MATH.sub(
        lambda m: f'<div class="math-block">{mathml(m.group(1), "block")}</div>', content)
    return INLINE_MATH.sub(lambda m: mathml(m.group(1), "inline"), content)

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
* ``\\infty`` is an ``<mo>`` and so gets operator space; it becomes ``<mi>``,
  and a slash (``0/0``) loses the space of a binary operator.

Chromium exposes a ``<math>`` element to assistive technology with its
MathML structure but with no name: it ignores ``alttext``.  Each formula's
``aria-label`` (and ``alttext``) is therefore the formula in words, made by
:func:`speech` from the same MathML: "w sub i equals e to the power s sub i,
over the sum over j of e to the power s sub j".  A screen reader without a
MathML engine reads that; one with an engine still has the MathML beneath.
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


def mathml(tex, display, searchable=True):
    """MathML for ``tex`` (HTML-escaped, as Arithmatex leaves it): inline or block.

    The search index reads the line of text after it (:func:`linear`), not
    the MathML, which it would run together.  In a heading (``searchable``
    false) the MathML's own text is the heading's name, in its id, the
    table of contents and the index alike: the formula has no line of text.

    >>> print(mathml(r"-\\infty", "inline"))      # doctest: +NORMALIZE_WHITESPACE
    <math display="inline" alttext="minus infinity" aria-label="minus infinity"
    data-search-exclude="" xmlns="http://www.w3.org/1998/Math/MathML"><mrow><mo lspace="0"
    rspace="0">−</mo><mi>∞</mi></mrow></math><span class="lesson-math-text" hidden>−∞</span>
    """
    tex = html.unescape(tex).strip()
    markup = convert(tex, display=display)
    root = ET.fromstring(markup.replace(NAMESPACE, "", 1))
    respace(root)
    words, text = speech(root), linear(root)
    root.set("alttext", words)
    root.set("aria-label", words)
    if searchable:
        root.set("data-search-exclude", "")
    root.set("xmlns", NAMESPACE.split('"')[1])
    markup = ET.tostring(root, encoding="unicode")
    if not searchable:
        return markup
    return markup + f'<span class="lesson-math-text" hidden>{html.escape(text)}</span>'


def respace(element):
    """Mend the spacing of ``element`` and everything in it, in place."""
    for index, child in enumerate(element):
        if _is_upright_name(child):                     # \mathrm{fl}: one name
            name = ET.Element("mi")
            name.text = "".join(letter.text for letter in child)
            element[index] = child = name
        respace(child)
        if child.tag == "mo" and _is_name(child.text):
            child.tag = "mi"                            # \max, \operatorname{...}
        elif child.tag == "mo" and child.text == "\u221e":
            child.tag = "mi"                            # \infty is a symbol
        elif child.tag == "mo" and child.text == "/":
            child.set("lspace", "0")                    # TeX: 1/2, not 1 / 2
            child.set("rspace", "0")
    if element.tag in SCRIPTS or element.tag == "mfrac" or element.tag == "mroot":
        return                                          # fixed roles: base, script
    _space_function_names(element)
    _group_unary_signs(element)


def _is_name(text):
    return bool(text) and len(text) > 1 and text.isalpha()


def _is_upright_name(element):
    return (element.tag == "mrow" and len(element) > 1
            and all(c.tag == "mi" and c.get("mathvariant") == "normal" for c in element))


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
    """A sign with no operand before it (``-1000``, ``e^{-m}``): no space, and
    grouped with its operand, so ``[-1000, -1000]`` reads as two numbers."""
    index = 0
    while index < len(row):
        if _is_unary_sign(row, index):
            sign, operand = row[index], row[index + 1]
            sign.set("lspace", "0")
            sign.set("rspace", "0")
            if len(row) > 2 and not _is_operator(operand):
                row.remove(sign)
                row.remove(operand)
                group = ET.Element("mrow")
                group.extend([sign, operand])
                row.insert(index, group)
        index += 1


def _is_unary_sign(row, index):
    """TeX's rule: a sign first in its row, or after an operator, is unary."""
    sign, before = row[index], _previous(row, index)
    return (sign.tag == "mo" and sign.text in SIGNS and index + 1 < len(row)
            and (before is None or (_is_operator(before) and before.text not in CLOSING)))


# --- The formula in words ---------------------------------------------------

WORDS = {
    "=": "equals", "\u2212": "minus", "+": "plus", "\u00b1": "plus or minus",
    "\u00d7": "times", "\u00b7": "times", "/": "divided by", "\u2248": "is about",
    "\u2264": "is at most", "\u2265": "is at least", "\u2208": "in", "\u2192": "tends to",
    "\u2211": "the sum", "\u221e": "infinity", "\u2026": "and so on to", ",": ",",
    "\u22a4": "transpose", "\u211d": "R", "\u03b5": "epsilon", "\u03b4": "delta",
    FUNCTION_APPLICATION: "of", "ln": "the natural log", "fl": "float",
}


def speech(element):
    """The MathML ``element`` as words a screen reader can speak.

    >>> root = ET.fromstring(convert(r"m = \\max_j s_j").replace(NAMESPACE, ""))
    >>> respace(root)
    >>> speech(root)
    'm equals max over j of s sub j'
    """
    words = " ".join(_words(element).split())
    words = re.sub(r"\s+([,)\]])", r"\1", re.sub(r"([(\[])\s+", r"\1", words))
    return re.sub(r",(\s*,)+", ",", words).rstrip(",")


def _words(element):
    tag, parts = element.tag, [_words(child) for child in element]
    if tag in ("mi", "mn", "mo", "mtext"):
        text = (element.text or "").strip()
        return WORDS.get(text, text)
    if tag == "mrow" and len(element) >= 3 and element[0].text == element[-1].text == "|":
        return f"the absolute value of {' '.join(parts[1:-1])},"
    if tag == "mfrac":
        if len(element[0]) == len(element[1]) == 0:
            return f"{parts[0]} over {parts[1]}"
        return f"the fraction {parts[0]}, over {parts[1]}, end of fraction,"
    if tag == "msqrt":
        return f"the square root of {' '.join(parts)},"
    if tag in ("msub", "munder") and element[0].text == "\u2211":
        return f"the sum over {parts[1]} of"
    if tag in ("msubsup", "munderover") and element[0].text == "\u2211":
        return f"the sum over {parts[1]} to {parts[2]} of"
    if tag in ("msub", "munder") and _is_function(element):
        return f"{parts[0]} over {parts[1]}"
    if tag == "msub":
        return f"{parts[0]} sub {parts[1]}"
    if tag == "msup" and parts[1] == "transpose":
        return f"{parts[0]} transpose"
    if tag == "msup":
        script = element[1]
        while script.tag == "mrow" and len(script) == 1:
            script = script[0]
        simple = script.tag != "mrow" or not any(c.tag == "mo" for c in script[1:])
        return f"{parts[0]} to the power {parts[1]}" + ("" if simple else ", end of power,")
    if tag == "msubsup":
        return f"{parts[0]} sub {parts[1]} to the power {parts[2]}"
    return " ".join(parts)


# --- The formula as a line of text -------------------------------------------

SUBSCRIPTS = dict(zip("0123456789+-=()aeijklmnopstuvx\u2212",
                      "\u2080\u2081\u2082\u2083\u2084\u2085\u2086\u2087\u2088\u2089"
                      "\u208a\u208b\u208c\u208d\u208e\u2090\u2091\u1d62\u2c7c\u2096"
                      "\u2097\u2098\u2099\u2092\u209a\u209b\u209c\u1d64\u1d65\u2093"
                      "\u208b"))
SUPERSCRIPTS = dict(zip("0123456789+-=()inT\u2212",
                        "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
                        "\u207a\u207b\u207c\u207d\u207e\u2071\u207f\u1d40\u207b"))
SUPERSCRIPTS["\u22a4"] = "\u1d40"                    # transpose
SPACED = {"=", "\u2248", "\u2264", "\u2265", "<", ">", "\u2208", "\u2192", "+", "\u2212",
          "\u00b1", "\u00d7", "mod"}


def linear(element):
    """The MathML ``element`` as one line of text, as a person types math:
    ``H(w) = \u2212\u2211\u1d62 w\u1d62 ln w\u1d62``.  The site's search index reads this
    (a formula's own MathML would read ``H(w)=\u2212\u2211iwiln\u2061wi`` there).

    >>> root = ET.fromstring(convert(r"w_i = \\frac{e^{s_i - m}}{\\sum_j e^{s_j - m}}").replace(NAMESPACE, ""))
    >>> respace(root)
    >>> print(linear(root))
    w\u1d62 = e^(s\u1d62 \u2212 m)/(\u2211\u2c7c e^(s\u2c7c \u2212 m))
    """
    text = " ".join(_linear(element).split())
    return re.sub(r"\s+([,)\]])", r"\1", re.sub(r"([(\[])\s+", r"\1", text))


def _linear(element):
    tag, parts = element.tag, [_linear(child) for child in element]
    if tag in ("mi", "mn", "mtext"):
        return element.text or ""
    if tag == "mo":
        text = (element.text or "").replace(FUNCTION_APPLICATION, "")
        unary = element.get("lspace") == "0" and text in SIGNS
        return f" {text} " if text in SPACED and not unary else (
            f"{text} " if text == "," else text)
    if tag == "mspace":
        return " "
    if tag == "mfrac":
        return f"{_grouped(parts[0])}/{_grouped(parts[1])}"
    if tag == "msqrt":
        return "\u221a" + _grouped(" ".join(parts))
    if tag in ("msub", "munder"):
        return parts[0] + _script(parts[1], SUBSCRIPTS, "_") + (" " if _is_operator(element) else "")
    if tag in ("msup", "mover"):
        return parts[0] + _script(parts[1], SUPERSCRIPTS, "^")
    if tag in ("msubsup", "munderover"):
        return (parts[0] + _script(parts[1], SUBSCRIPTS, "_")
                + _script(parts[2], SUPERSCRIPTS, "^") + " ")
    return "".join(parts)


def _grouped(text):
    """A fraction's, a root's or a script's part: in brackets when it is more
    than one term (a space outside brackets), or starts with a sign."""
    text = " ".join(text.split())
    depth, terms = 0, False
    for character in text:
        depth += (character in "([") - (character in ")]")
        terms = terms or (character == " " and depth == 0)
    return f"({text})" if terms or text[:1] in SIGNS else text


def _script(text, table, mark):
    """A sub- or superscript: in Unicode's small letters where each has one."""
    text = " ".join(text.split())
    if text and all(c in table for c in text.replace(" ", "")):
        return "".join(table[c] for c in text.replace(" ", ""))
    return mark + _grouped(text)


# --- Math written for Arithmatex, in a page's HTML --------------------------

BLOCK_MATH = re.compile(r'<div class="arithmatex">\s*\\\[(.*?)\\\]\s*</div>', re.S)
INLINE_MATH = re.compile(r'<span class="arithmatex( in-heading)?">\\\((.*?)\\\)</span>', re.S)


def replace_math(content):
    """Every ``\\(...\\)`` and ``\\[...\\]`` that Arithmatex marked, as MathML."""
    content = BLOCK_MATH.sub(
        lambda m: f'<div class="math-block">{mathml(m.group(1), "block")}</div>', content)
    return INLINE_MATH.sub(lambda m: mathml(m.group(2), "inline", not m.group(1)), content)


def mark_math_in_headings(root):
    """Arithmatex's math in a heading (an ElementTree), marked ``in-heading``."""
    for heading in root.iter():
        if heading.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            for span in heading.iter("span"):
                if span.get("class") == "arithmatex":
                    span.set("class", "arithmatex in-heading")

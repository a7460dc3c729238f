"""Markdown that the build-time modules write: one place for a table's form."""


def markdown_table(rows, left=1):
    """A Markdown table: the first ``left`` columns of text, the rest figures.

    >>> print(markdown_table([("key", "weight"), ("1", "0.5")]))
    | key | weight |
    | :--- | ---: |
    | 1 | 0.5 |
    """
    header, *body = rows
    align = [":---" if i < left else "---:" for i in range(len(header))]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |"]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)

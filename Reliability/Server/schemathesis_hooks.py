"""schemathesis hooks for `albums serve`: how to write a JSON Lines body.

The document describes `POST /api/batch`'s body as an array of operations;
on the wire it is one JSON object per line.
"""

import json

import schemathesis


@schemathesis.serializer("application/jsonl")
def json_lines(context, value):
    if isinstance(value, (bytes, str)):
        return {"data": value if isinstance(value, bytes) else value.encode("utf-8")}
    if isinstance(value, list):
        return {"data": "".join(json.dumps(line) + "\n" for line in value).encode("utf-8")}
    return {"data": json.dumps(value).encode("utf-8")}

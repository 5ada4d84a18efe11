"""schemathesis hooks for `albums serve`: how to write a JSON Lines body.

The document describes `POST /api/batch`'s body as an array of operations;
on the wire it is one JSON object per line. A serializer registered here
returns the body's bytes (schemathesis 4 sends them as they are; a dict
would be sent form-encoded).
"""

import json

import schemathesis


@schemathesis.serializer("application/jsonl")
def json_lines(context, value):
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode("utf-8")
    if isinstance(value, list):
        return "".join(json.dumps(line) + "\n" for line in value).encode("utf-8")
    return (json.dumps(value) + "\n").encode("utf-8")

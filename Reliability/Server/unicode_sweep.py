"""Any Unicode, any length and any number in every parameter of the API.

Walks the server's own OpenAPI document: every path and query parameter of
every operation, and every string, number and reference inside each JSON
body it describes (each alternative of `Operation`, as one request and as a
batch line, performed and as a dry run). Each gets, one at a time, the
values below: digits of other scripts (which `\\d` matches and `Int()`
refuses), combining marks, NUL and other controls, lone surrogates (as JSON
escapes, and as the bytes of one in a URL), bidirectional overrides, a
megabyte of text, numbers past Int64 and past any double.

No answer may be a 5xx, and the server must stay up: a refusal is a 4xx
with its code. What a value does to the library (an album named "٢٠٢٥" is
a fine name) is left to the library's own check at the end.
"""

import json
from urllib.parse import quote

from serverkit import fail

TEXTS = [
    "\u0662\u0660\u0662\u0665",  # 2025 in Arabic-Indic digits
    "\uff12\uff10\uff12\uff15",  # 2025 in fullwidth digits
    "\u00bd", "\u0968\u0966\u0968\u096b-\u0966\u096d",  # a fraction; 2025-07 in Devanagari
    "2\u0301025-0\u03017",  # digits with combining marks
    "\u0000", "a\u0000b", "Trip\u0000", "2025\u0000", "\u0001\u001f\u007f\u0085",
    "\u202etrip\u202c", "\u200b", "\ufeff", "\uffff", "\U0010ffff", "\U0001f468\u200d\U0001f469\u200d\U0001f467",
    "e\u0301" * 64, "\u0300" * 64,
    "%00", "%", "..", "../../etc/passwd", "Trip:1", "id:1", "*", "\"", "'; DROP TABLE album; --", "\\",
    "x" * (1 << 20),
]
NUMBERS = [
    "99999999999999999999999", "-99999999999999999999999", "9223372036854775807", "9223372036854775808",
    "-9223372036854775809", "18446744073709551616", "1e400", "-1e400", "NaN", "Infinity", "-0", "0x10", "1.5",
    "\u0661\u0662", "\uff11\uff12",
]
# In JSON bodies only: a lone surrogate, which no UTF-8 text can hold.
JSON_ESCAPES = ["\\ud800", "a\\udfffb", "\\ud800\\ud800", "\\u0000"]
JSON_NUMBERS = ["99999999999999999999999", "-99999999999999999999999", "1e400", "-1e400", "9223372036854775808", "1.5", "-0"]

# Valid values for the parameters a request needs, so that each sweep reaches past them.
VALID = {"name": "Trip", "id": "1", "token": "nope"}


def deref(document, schema):
    while isinstance(schema, dict) and "$ref" in schema:
        node = document
        for part in schema["$ref"].lstrip("#/").split("/"):
            node = node[part]
        schema = node
    return schema


def minimal(document, schema):
    """A small value the schema allows."""
    schema = deref(document, schema)
    if "oneOf" in schema:
        return minimal(document, schema["oneOf"][0])
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    kind = kind[0] if isinstance(kind, list) else kind
    if kind == "object":
        return {key: minimal(document, value) for key, value in schema.get("properties", {}).items() if key in schema.get("required", [])}
    if kind == "array":
        return [minimal(document, schema.get("items", {}))]
    if kind == "integer" or kind == "number":
        return 1
    if kind == "boolean":
        return False
    if "pattern" in schema and "@" in schema["pattern"]:
        return "1@x"
    return "Trip:1" if "Reference" in json.dumps(schema) else "Trip"


def slots(document, schema, path=()):
    """Every place inside a body of `schema` a string or number can stand: (path, is_number)."""
    schema = deref(document, schema)
    if "enum" in schema:
        yield path, False
        return
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    if "object" in kinds:
        for key, value in schema.get("properties", {}).items():
            yield from slots(document, value, path + (key,))
    elif "array" in kinds:
        yield from slots(document, schema.get("items", {}), path + (0,))
    elif "integer" in kinds or "number" in kinds:
        yield path, True
    elif "string" in kinds:
        yield path, False


MARK = "\u0007MARK\u0007"


def placed(body, path, raw):
    """`body` as JSON text with the value at `path` (keys, and 0 for an
    array's first element) replaced by the raw JSON `raw`."""
    copy = json.loads(json.dumps(body))
    node = copy
    for index, part in enumerate(path[:-1]):
        kind = list if isinstance(path[index + 1], int) else dict
        if isinstance(part, int):
            if not node or not isinstance(node[0], kind):
                node[:1] = [kind()]
            node = node[0]
        else:
            if not isinstance(node.get(part), kind):
                node[part] = kind()
            node = node[part]
    if isinstance(path[-1], int):
        node[:1] = [MARK]
    else:
        node[path[-1]] = MARK
    return json.dumps(copy).replace(json.dumps(MARK), raw)


def json_values(is_number):
    texts = [json.dumps(text) for text in TEXTS] + [f'"{escape}"' for escape in JSON_ESCAPES]
    return (JSON_NUMBERS + texts[:6]) if is_number else texts + [json.dumps(number) for number in NUMBERS[:4]]


class Sweep:
    def __init__(self, server, library):
        self.server = server
        self.library = library
        self.document = None
        self.sent = 0

    def send(self, what, method, path, body=None, headers=None):
        try:
            status, _, data = self.server.request(method, path, body=body, headers=headers, timeout=60)
        except (ConnectionError, OSError) as error:
            if self.server.alive():
                # A megabyte in a URL may be cut off by the server's header limit: a refusal, not a crash.
                return None
            fail(f"{what}: the server died ({error})")
        self.sent += 1
        if status >= 500:
            fail(f"{what}: answered {status}: {data[:300]!r}")
        if not self.server.alive():
            fail(f"{what}: the server died")
        return status

    def run(self):
        status, _, document = self.server.request("GET", "/api/openapi.json")
        if status != 200:
            fail(f"GET /api/openapi.json answered {status}")
        self.document = json.loads(document)
        for template, operations in self.document["paths"].items():
            if template == "/api/events":
                continue  # never ends, by design
            for method, operation in operations.items():
                if not isinstance(operation, dict) or method == "parameters":
                    continue
                self.parameters(template, method.upper(), operation)
                self.bodies(template, method.upper(), operation)
        print(f"any Unicode in every parameter: {self.sent} requests, none a 5xx, the server up")

    def url(self, template, path_values, query):
        path = template
        for name, value in path_values.items():
            path = path.replace("{" + name + "}", quote(value, safe=""))
        return path + ("?" + "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in query.items()) if query else "")

    def parameters(self, template, method, operation):
        parameters = [deref(self.document, p) for p in operation.get("parameters", [])]
        path_values = {p["name"]: VALID.get(p["name"], "1") for p in parameters if p["in"] == "path"}
        body = self.default_body(operation)
        for parameter in parameters:
            if parameter["in"] not in ("path", "query"):
                continue
            for value in TEXTS + NUMBERS:
                values = dict(path_values)
                query = {}
                if parameter["in"] == "path":
                    values[parameter["name"]] = value
                else:
                    query[parameter["name"]] = value
                if method != "GET":
                    query.setdefault("dry_run", "1")
                self.send(f"{method} {template} with {parameter['name']}={value[:40]!r}", method, self.url(template, values, query), body=body)
            # A lone surrogate's bytes (not UTF-8) in the URL.
            raw = "%ED%A0%80"
            if parameter["in"] == "query":
                self.send(f"{method} {template} with {parameter['name']} a surrogate's bytes", method,
                          self.url(template, path_values, {}) + f"?{parameter['name']}={raw}", body=body)

    def default_body(self, operation):
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" in content:
            return json.dumps(minimal(self.document, content["application/json"]["schema"]))
        return None

    def bodies(self, template, method, operation):
        content = operation.get("requestBody", {}).get("content", {})
        kind = next((k for k in ("application/json", "application/jsonl") if k in content), None)
        if kind is None:
            return
        schema = deref(self.document, content[kind]["schema"])
        if kind == "application/jsonl":
            schema = schema["items"]
        schema = deref(self.document, schema)
        alternatives = [deref(self.document, s) for s in schema.get("oneOf", [schema])]
        path = self.url(template, {"name": "Trip", "token": "nope"}, {})
        # A dry run is planned before anything is written: the requests that crashed before the rights were checked.
        dry_runs = (True, False) if template in ("/api/operations", "/api/batch") else (False,)
        for alternative in alternatives:
            base = minimal(self.document, alternative)
            for slot, is_number in slots(self.document, alternative):
                if not slot or slot[0] == "op":
                    continue  # each alternative's op is what makes it that alternative
                for raw in json_values(is_number):
                    body = placed(base, slot, raw)
                    what = f"{method} {template} ({base.get('op', '')}) with {'.'.join(map(str, slot))}={raw[:40]}"
                    for dry in dry_runs:
                        status = self.send(what, method, path + ("?dry_run=1" if dry else ""), body=body)
                        if not dry and status is not None and status < 300 and template in ("/api/operations", "/api/batch"):
                            # Taken back, so that the next requests still find the albums they name.
                            self.send(f"undo after {what}", "POST", "/api/undo")

# SPDX-License-Identifier: GPL-2.0
# make compare's interpreter case: json and re from the standard library,
# ROUNDS (argv[1]) times.
import json
import re
import sys

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 10
WORD = re.compile(r"\b[a-z]+_[0-9]+\b")
docs = [{"id": i, "name": "item_%d" % i, "tags": ["t_%d" % (i % 7), "x"],
         "score": i * 0.5, "nested": {"a": [i, i + 1], "b": None}}
        for i in range(2000)]
n = 0
for _ in range(ROUNDS):
    text = json.dumps(docs)
    back = json.loads(text)
    n += len(back) + len(WORD.findall(text))
print(n)

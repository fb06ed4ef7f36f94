#!/usr/bin/env python3
"""Prints real DALI's schema of an operator (arguments, types, defaults, tensor flags, inputs),
for writing a dalic operator with the same form. Needs a Python with nvidia-dali (the oracle
suite's venv: build/dali-venv/bin/python, made by `make check-dali`).

    build/dali-venv/bin/python tools/dali_schema.py Slice random__CoinFlip ...
"""
import sys

import nvidia.dali.backend as b


def dali_schema_print(name):
    s = b.GetSchema(name)
    print("%s  (inputs %d..%d, module %s)" % (name, s.MinNumInput(), s.MaxNumInput(),
                                             s.ModulePath()))
    doc = " ".join(s.Dox().split())
    print("  doc: %s" % doc[:300])
    for i in range(s.MaxNumInput() if s.MaxNumInput() < 100 else 1):
        try:
            print("  input %d: %s" % (i, s.GetInputName(i)))
        except Exception:  # noqa: BLE001 - schemas without input names
            pass
    for a in sorted(s.GetArgumentNames()):
        if s.IsDeprecatedArg(a):
            flag = " (deprecated)"
        else:
            flag = ""
        default = (s.GetArgumentDefaultValueString(a) if s.HasArgumentDefaultValue(a)
                   else ("optional" if s.IsArgumentOptional(a) else "REQUIRED"))
        print("  %-28s %-26s %-22s%s%s" % (a, str(s.GetArgumentType(a)).replace(
            "DALIDataType.", ""), default, " tensor" if s.IsTensorArgument(a) else "", flag))


if __name__ == "__main__":
    for n in sys.argv[1:]:
        dali_schema_print(n)

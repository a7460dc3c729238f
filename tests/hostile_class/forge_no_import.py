# Forged grades: reaches for the lesson's own functions without an import
# statement: import __main__, gc.get_objects(), a scan of sys.modules, and
# the frames above it, looking for the checker's CHECKS or its softmax.
import gc
import sys

import __main__

places = [vars(__main__)] + [vars(m) for m in list(sys.modules.values()) if m]
frame = sys._getframe()
while frame is not None:
    places += [frame.f_globals, frame.f_locals]
    frame = frame.f_back
places += [o for o in gc.get_objects() if type(o) is dict]
for place in places:
    if "CHECKS" in place:
        globals()["CHECKS"] = place["CHECKS"]
    for name in ("softmax", "naive_softmax", "rows_normalised", "entropy"):
        value = place.get(name)
        if callable(value) and str(getattr(value, "__module__", "")).startswith("lesson"):
            globals()[name] = value

# Writes into its Python's site-packages: a .pth file there is read by
# every later Python started from it (the checker's next workers, the
# teacher's next run); this one holds only a path that does not exist, and
# its name carries the nonce this file prints.  It also tries the user's
# site-packages.  Its four functions return None: what it wrote is looked
# for on disk after the run.
import os
import site
import sys

NONCE = os.urandom(8).hex()
print("NONCE", NONCE)
folders = list(getattr(site, "getsitepackages", lambda: [])())
folders += [site.getusersitepackages()] if hasattr(site, "getusersitepackages") else []
folders += [p for p in sys.path if p.endswith(("site-packages", "dist-packages"))]
WROTE = []
for folder in dict.fromkeys(folders):
    path = os.path.join(folder, f"lesson_confinement_corpus_{NONCE}.pth")
    try:
        with open(path, "x") as file:
            file.write("/nonexistent/lesson-confinement-corpus\n")
        WROTE.append(path)
        print("WROTE", path)
    except OSError as error:
        print("DENIED", folder, error.strerror)



def softmax(x, axis=-1):
    return None


def naive_softmax(x):
    return None


def rows_normalised(W, tol=1e-9):
    return None


def entropy(w):
    return None

# Leaves files behind where every user may write: a package named lesson in
# /tmp, /var/tmp, /dev/shm, /run/lock and a class's shared scratch folder in
# /tmp (found first by a teacher's Python started there later), each
# folder's name carrying the nonce this file prints.  Its four functions
# return None: what it left is looked for on disk after the run.
import glob
import os

NONCE = os.urandom(8).hex()
print("NONCE", NONCE)
LEFT = []
for place in ["/tmp", "/var/tmp", "/dev/shm", "/run/lock"] + glob.glob("/tmp/*-scratch"):
    folder = os.path.join(place, f"lesson-confinement-planted-{NONCE}")
    try:
        os.makedirs(os.path.join(folder, "lesson"))
        with open(os.path.join(folder, "lesson", "__init__.py"), "w") as file:
            file.write("raise SystemExit('planted by the confinement corpus')\n")
        LEFT.append(folder)
        print("PLANTED", folder)
    except OSError as error:
        print("DENIED", place, error.strerror)



def softmax(x, axis=-1):
    return None


def naive_softmax(x):
    return None


def rows_normalised(W, tol=1e-9):
    return None


def entropy(w):
    return None

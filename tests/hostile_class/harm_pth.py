# One student harms the others: drops a .pth into site-packages and the
# user site, so every later Python runs its code.  Safety: only inside the
# checker's sandbox (where the system is read-only); never on a real system.
import os
import site

if os.path.exists("/tmp/.lesson-harness.py"):
    places = list(site.getsitepackages()) + [site.getusersitepackages()]
    for folder in places:
        try:
            os.makedirs(folder, exist_ok=True)
            with open(os.path.join(folder, "hostile18.pth"), "w") as file:
                file.write("import os; os.system('echo hostile18 pth ran')\n")
        except OSError:
            pass

# expect: ok
# value: ["a.txt", "b.txt", "copy.txt"]
# glob and shutil in a temporary directory.
import glob, os, shutil, tempfile
with tempfile.TemporaryDirectory() as d:
    for name in ["a.txt", "b.txt", "c.log"]:
        with open(os.path.join(d, name), "w") as f:
            f.write(name)
    shutil.copyfile(os.path.join(d, "a.txt"), os.path.join(d, "copy.txt"))
    os.makedirs(os.path.join(d, "x", "y"))
    shutil.rmtree(os.path.join(d, "x"))
    result = sorted(os.path.basename(p) for p in glob.glob(os.path.join(d, "*.txt")))

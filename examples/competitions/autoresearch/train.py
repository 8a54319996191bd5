"""The miner's script of this pack: the ternary pack's training, unchanged (the artifact is packed with ternary/pack.py)."""
import os
import runpy

if __name__ == "__main__":
    runpy.run_path(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ternary", "train.py"), run_name="__main__")

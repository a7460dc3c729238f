# No resource limits: a segmentation fault while loading.
import ctypes

ctypes.string_at(0)

# No resource limits: takes 6 GiB of memory while loading.
HOARD = bytearray(6 << 30)

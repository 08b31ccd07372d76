# smp — a plain SMP PC (q35, OVMF), no hybrid emulation.
MACHINE_SMP := 4
MACHINE_MEM := 512M

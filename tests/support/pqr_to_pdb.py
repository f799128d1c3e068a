"""pqr_to_pdb.py FILE.pqr > FILE.pdb: a PQR's atoms as PDB ATOM records with element columns
(the name's first letter), for gmx pdb2gmx (APBS' barnase example in the scattering tests)."""
import sys

for line in open(sys.argv[1]):
    if not line.startswith(("ATOM", "HETATM")):
        continue
    f = line.split()
    name = f[2] if len(f[2]) == 4 else " " + f[2]
    print("ATOM  %5d %-4s %3s %1s%4d    %8.3f%8.3f%8.3f  1.00  0.00          %2s"
          % (int(f[1]) % 100000, name, f[3], f[4], int(f[5]), float(f[6]), float(f[7]),
             float(f[8]), f[2].lstrip("0123456789")[0]))

# obj_distance.awk A.obj B.obj: the RMS and the largest distance between the vertices of
# two OBJ files of one mesh (the same vertices in the same order), printed as
# "rms max vertices" with 17 digits.  Exit 1 when the vertex counts differ or one is empty.
FNR == 1 { file++ }
$1 == "v" {
    if (file == 1) { ax[++na] = $2; ay[na] = $3; az[na] = $4 }
    else { nb++; dx = $2 - ax[nb]; dy = $3 - ay[nb]; dz = $4 - az[nb]
           d2 = dx * dx + dy * dy + dz * dz; sum += d2; if (d2 > big) big = d2 }
}
END {
    if (na == 0 || na != nb) { printf "obj_distance: %d and %d vertices\n", na, nb > "/dev/stderr"; exit 1 }
    printf "%.17g %.17g %d\n", sqrt(sum / na), sqrt(big), na
}

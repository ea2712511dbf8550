# extrapolate.awk -v p=P -v step=S A.obj B.obj ...: Richardson extrapolation of the vertex
# positions of runs at h, h/2, h/4, ... (in that order) of a method whose global error has
# the asymptotic expansion e(h) = c_p h^p + c_(p+S) h^(p+S) + ... (Hairer, Norsett and
# Wanner I, II.8: every one-step method with a smooth increment function has one; S = 2
# for a symmetric method, whose expansion is even, S = 1 otherwise).  The tableau
#   T(i, 0) = run i,  T(i, j) = (2^q T(i, j-1) - T(i-1, j-1)) / (2^q - 1),  q = p + (j-1) S
# takes out one term a column; printed: T(n-1, n-1) as OBJ vertices (%.17g), whose error
# is O(h^(p + (n-1) S)).
FNR == 1 { f++ }
$1 == "v" { nv[f]++; i = nv[f]; t[f, 0, i, 1] = $2; t[f, 0, i, 2] = $3; t[f, 0, i, 3] = $4 }
END {
    if (f < 2) { print "extrapolate.awk: needs two runs or more" > "/dev/stderr"; exit 1 }
    for (k = 2; k <= f; k++)
        if (nv[k] != nv[1] || nv[1] == 0) {
            printf "extrapolate.awk: %d and %d vertices\n", nv[1], nv[k] > "/dev/stderr"; exit 1
        }
    for (j = 1; j < f; j++) {
        c = 2 ^ (p + (j - 1) * step)
        for (r = j + 1; r <= f; r++)
            for (i = 1; i <= nv[1]; i++)
                for (d = 1; d <= 3; d++)
                    t[r, j, i, d] = (c * t[r, j - 1, i, d] - t[r - 1, j - 1, i, d]) / (c - 1)
    }
    for (i = 1; i <= nv[1]; i++)
        printf "v %.17g %.17g %.17g\n", t[f, f - 1, i, 1], t[f, f - 1, i, 2], t[f, f - 1, i, 3]
}

# plots/obj_triangles.awk (make_figures.sh, figure garments): an OBJ as gnuplot pm3d
# triangles, each a 2 x 2 grid (a b / c c), in gnuplot's axes (x, -z, y): the body's up
# is gnuplot's z, its front gnuplot's -y.  Column 4 is the colour,
# lo + (hi - lo) s, with s = 0.25 + 0.75 |n.L| the triangle's two-sided diffuse shade
# under a light from the front, above, right (L = (1, -2, 1.5) normalised).
#   awk -v lo=0 -v hi=0.45 -f plots/obj_triangles.awk body.obj >body.dat
BEGIN { lx = 1; ly = -2; lz = 1.5; ll = sqrt(lx*lx + ly*ly + lz*lz); lx /= ll; ly /= ll; lz /= ll }
$1 == "v" { n++; X[n] = $2; Y[n] = -$4; Z[n] = $3 }
$1 == "f" {
    split($2, a, "/"); split($3, b, "/"); split($4, d, "/"); i = a[1]; j = b[1]; k = d[1]
    ux = X[j] - X[i]; uy = Y[j] - Y[i]; uz = Z[j] - Z[i]
    vx = X[k] - X[i]; vy = Y[k] - Y[i]; vz = Z[k] - Z[i]
    nx = uy * vz - uz * vy; ny = uz * vx - ux * vz; nz = ux * vy - uy * vx
    nn = sqrt(nx * nx + ny * ny + nz * nz); if (nn == 0) next
    s = (nx * lx + ny * ly + nz * lz) / nn; if (s < 0) s = -s
    c = lo + (hi - lo) * (0.25 + 0.75 * s)
    printf "%s %s %s %.3f\n%s %s %s %.3f\n\n", X[i], Y[i], Z[i], c, X[j], Y[j], Z[j], c
    printf "%s %s %s %.3f\n%s %s %s %.3f\n\n\n", X[k], Y[k], Z[k], c, X[k], Y[k], Z[k], c
}

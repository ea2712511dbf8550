# rigid.awk -v a=I -v b=J -v g="GX GY GZ" -v t=TIME -v n=STEPS REST.obj: the positions at
# time t of the scene's cloth made rigid (every spring inextensible), pinned at its
# vertices a and b (1-based), released from rest at REST.obj, vertices of equal mass:
# the compound pendulum about the axis through the two pins.  With u the unit axis,
# r_i = x_i - x_a, r_c their mean (the centre of mass), J = the mean of |r_i - (r_i.u) u|^2
# (the moment of inertia over the mass), and R(theta) the rotation about u by theta
# (Rodrigues: R v = v cos + (u x v) sin + u (u.v)(1 - cos)),
#   J theta'' = u . ((R(theta) r_c) x g) = A cos(theta) + B sin(theta),
#   A = u . (r_perp x g), B = u . ((u x r_c) x g),  r_perp = r_c - (r_c.u) u,
# theta(0) = theta'(0) = 0, integrated by RK4 in n steps; printed: x_a + R(theta) r_i
# (%.17g), then "# theta THETA" on stderr.  The limit of verlet's relaxation as h -> 0
# when the constraints make the net rigid (structural, shear and bend springs at rest
# length on a grid: docs/figures.md, work-precision).
$1 == "v" { nv++; x[nv] = $2; y[nv] = $3; z[nv] = $4 }
function cross(p, q, r) { r[1] = p[2] * q[3] - p[3] * q[2]; r[2] = p[3] * q[1] - p[1] * q[3]
                          r[3] = p[1] * q[2] - p[2] * q[1] }
function acc(th) { return (A * cos(th) + B * sin(th)) / J }
END {
    if (nv == 0 || a < 1 || b < 1 || a > nv || b > nv || a == b) {
        print "rigid.awk: needs two distinct pinned vertices of the mesh" > "/dev/stderr"; exit 1 }
    split(g, gv, " ")
    u[1] = x[b] - x[a]; u[2] = y[b] - y[a]; u[3] = z[b] - z[a]
    len = sqrt(u[1] ^ 2 + u[2] ^ 2 + u[3] ^ 2)
    for (d = 1; d <= 3; d++) u[d] /= len
    for (i = 1; i <= nv; i++) {
        r[i, 1] = x[i] - x[a]; r[i, 2] = y[i] - y[a]; r[i, 3] = z[i] - z[a]
        up = r[i, 1] * u[1] + r[i, 2] * u[2] + r[i, 3] * u[3]
        for (d = 1; d <= 3; d++) { rc[d] += r[i, d] / nv; J += (r[i, d] - up * u[d]) ^ 2 / nv }
    }
    up = rc[1] * u[1] + rc[2] * u[2] + rc[3] * u[3]
    for (d = 1; d <= 3; d++) rp[d] = rc[d] - up * u[d]
    cross(rp, gv, c1); A = u[1] * c1[1] + u[2] * c1[2] + u[3] * c1[3]
    cross(u, rc, w); cross(w, gv, c2); B = u[1] * c2[1] + u[2] * c2[2] + u[3] * c2[3]
    th = 0; om = 0; hh = t / n
    for (k = 0; k < n; k++) {
        k1t = om; k1w = acc(th)
        k2t = om + hh / 2 * k1w; k2w = acc(th + hh / 2 * k1t)
        k3t = om + hh / 2 * k2w; k3w = acc(th + hh / 2 * k2t)
        k4t = om + hh * k3w; k4w = acc(th + hh * k3t)
        th += hh / 6 * (k1t + 2 * k2t + 2 * k3t + k4t)
        om += hh / 6 * (k1w + 2 * k2w + 2 * k3w + k4w)
    }
    cs = cos(th); sn = sin(th)
    for (i = 1; i <= nv; i++) {
        for (d = 1; d <= 3; d++) v[d] = r[i, d]
        cross(u, v, uv); ud = u[1] * v[1] + u[2] * v[2] + u[3] * v[3]
        printf "v %.17g %.17g %.17g\n", x[a] + v[1] * cs + uv[1] * sn + u[1] * ud * (1 - cs),
            y[a] + v[2] * cs + uv[2] * sn + u[2] * ud * (1 - cs),
            z[a] + v[3] * cs + uv[3] * sn + u[3] * ud * (1 - cs)
    }
    printf "# theta %.17g\n", th > "/dev/stderr"
}

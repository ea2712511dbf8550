/* Private: the dihedral angle of a hinge and its gradient, for bending constraints.
 *
 * A hinge is the edge (x0, x1) shared by the triangles (x2, x0, x1) and (x3, x1, x0),
 * x2 and x3 the opposite vertices (cloth_mesh.hinges order e0, e1, o0, o1).  With
 *
 *   e  = x1 - x0,   N1 = (x0 - x2) x (x1 - x2),   N2 = (x1 - x3) x (x0 - x3)
 *
 * both normals point the same way when the hinge is flat, whatever the orientation of
 * the mesh's triangles, and the signed angle between them is
 *
 *   theta = atan2((n1 x n2).e^, n1.n2)         in (-pi, pi], 0 when flat
 *
 * (n = N/|N|, e^ = e/|e|).  Its gradient is minus the bending modes u1..u4 of Bridson,
 * Marino and Fedkiw 2003 ("Simulation of clothing with folds and wrinkles"),
 * whose angle is measured the other way round:
 *
 *   d theta/dx2 = -|e| N1/|N1|^2              d theta/dx3 = -|e| N2/|N2|^2
 *   d theta/dx0 = -((x2 - x1).e^) N1/|N1|^2 - ((x3 - x1).e^) N2/|N2|^2
 *   d theta/dx1 =  ((x2 - x0).e^) N1/|N1|^2 + ((x3 - x0).e^) N2/|N2|^2
 *
 * The four add up to zero (a translation does not bend); the tests check them against
 * central finite differences of theta.
 */
#ifndef CLOTH_DIHEDRAL_H
#define CLOTH_DIHEDRAL_H

/* theta of the hinge (x0, x1 | x2, x3); 0 when a triangle is degenerate. */
double cloth__dihedral_angle(const double x0[3], const double x1[3], const double x2[3],
                             const double x3[3]);

/* theta and g = (d theta/dx0, dx1, dx2, dx3) (12 values).  Returns 0, with g zeroed,
 * when the edge or a triangle is degenerate (no defined angle); 1 otherwise. */
int cloth__dihedral_gradient(const double x0[3], const double x1[3], const double x2[3],
                             const double x3[3], double *theta, double g[12]);

#endif

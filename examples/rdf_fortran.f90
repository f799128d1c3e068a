! kmol's C API from Fortran through iso_c_binding: simple cubic lattice, 6 neighbours at a.
! Built and run as a test when gfortran is found (ctest: examples.fortran).
module kmol
  use iso_c_binding
  implicit none
  interface
    integer(c_int) function kmol_initialize() bind(c)
      import
    end function
    integer(c_int) function kmol_finalize() bind(c)
      import
    end function
    type(c_ptr) function kmol_rdf_create(r_min, r_max, n_bins, precision) bind(c)
      import
      real(c_double), value :: r_min, r_max
      integer(c_int32_t), value :: n_bins
      integer(c_int), value :: precision
    end function
    integer(c_int) function kmol_rdf_add_frame(rdf, xyz_a, n_a, xyz_b, n_b, box) bind(c)
      import
      type(c_ptr), value :: rdf, xyz_b
      real(c_double) :: xyz_a(*), box(9)
      integer(c_int64_t), value :: n_a, n_b
    end function
    integer(c_int) function kmol_rdf_result(rdf, norm, r, g, n) bind(c)
      import
      type(c_ptr), value :: rdf
      integer(c_int), value :: norm
      real(c_double) :: r(*), g(*), n(*)
    end function
    subroutine kmol_rdf_destroy(rdf) bind(c)
      import
      type(c_ptr), value :: rdf
    end subroutine
  end interface
end module

program rdf_fortran
  use kmol
  implicit none
  integer, parameter :: cells = 6, atoms = cells**3, bins = 50
  real(c_double), parameter :: a = 3.0d0
  real(c_double) :: xyz(3, atoms), box(9), r(bins), g(bins), n(bins)
  type(c_ptr) :: rdf
  integer :: i, j, k, m
  m = 0
  do i = 0, cells - 1
    do j = 0, cells - 1
      do k = 0, cells - 1
        m = m + 1
        xyz(:, m) = [i * a, j * a, k * a]
      end do
    end do
  end do
  box = 0
  box(1) = cells * a; box(5) = cells * a; box(9) = cells * a
  if (kmol_initialize() /= 0) stop 1
  rdf = kmol_rdf_create(0.0d0, 5.0d0, int(bins, c_int32_t), 1_c_int)
  if (kmol_rdf_add_frame(rdf, xyz, int(atoms, c_int64_t), c_null_ptr, 0_c_int64_t, box) /= 0) stop 2
  if (kmol_rdf_result(rdf, 0_c_int, r, g, n) /= 0) stop 3
  ! a = 3 lies in bin [3.0, 3.1): the cumulative count there is the 6 nearest neighbours.
  print '(a, f6.3, a, f8.3)', 'Fortran: n(', r(31), ') = ', n(31)
  call kmol_rdf_destroy(rdf)
  if (kmol_finalize() /= 0) stop 4
  if (abs(n(31) - 6) > 1d-12 .or. abs(n(30)) > 1d-12) stop 5
end program

import { QuarryError } from '@quarry/common';
import { plan } from '../test-helpers';

/** Planning `text` fails with apl_type_mismatch; its message. */
function mismatch(text: string): QuarryError {
  try {
    plan(text);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'apl_type_mismatch' });
    return err as QuarryError;
  }
  throw new Error(`expected apl_type_mismatch for: ${text}`);
}

const LINE = 'dynamic({"type":"LineString","coordinates":[[0,0],[1,1]]})';
const POLY = 'dynamic({"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]})';

describe('argument types of the Kusto function extensions, checked at planning', () => {
  it.each([
    // [query, column of the bad argument, message]
    [
      'ds | extend d = geo_distance_2points(method, 1, 2, 3)',
      38,
      "argument 1 of 'geo_distance_2points': expected a number but got string",
    ],
    [
      'ds | extend d = geo_distance_2points(0, 0, 1, 1, 1)',
      50,
      "argument 5 of 'geo_distance_2points': expected bool but got long",
    ],
    [
      'ds | extend b = geo_point_in_polygon(0, _time, ' + POLY + ')',
      41,
      "argument 2 of 'geo_point_in_polygon': expected a number but got datetime",
    ],
    [
      'ds | extend b = geo_point_in_polygon(0, 0, 5)',
      44,
      "argument 3 of 'geo_point_in_polygon': expected a GeoJSON dynamic value but got long",
    ],
    [
      'ds | extend a = geo_polygon_area(1.5)',
      34,
      "argument 1 of 'geo_polygon_area': expected a GeoJSON dynamic value but got real",
    ],
    [
      'ds | extend n = geo_line_length(true)',
      33,
      "argument 1 of 'geo_line_length': expected a GeoJSON dynamic value but got bool",
    ],
    [
      `ds | extend d = geo_line_densify(${LINE}, "10")`,
      94,
      "argument 2 of 'geo_line_densify': expected a number but got string",
    ],
    [
      `ds | extend p = geo_line_interpolate_point(${LINE}, _time)`,
      104,
      "argument 2 of 'geo_line_interpolate_point': expected a number but got datetime",
    ],
    [
      `ds | extend f = geo_line_locate_point(${LINE}, 1, 1, 1)`,
      105,
      "argument 4 of 'geo_line_locate_point': expected bool but got long",
    ],
    [
      'ds | extend b = geo_intersects_2lines(1, 2)',
      39,
      "argument 1 of 'geo_intersects_2lines': expected a GeoJSON dynamic value but got long",
    ],
    [
      'ds | extend h = geo_point_to_geohash(1, 2, "5")',
      44,
      "argument 3 of 'geo_point_to_geohash': expected a number but got string",
    ],
    [
      'ds | extend h = geo_point_to_h3cell(1, 2, _time)',
      43,
      "argument 3 of 'geo_point_to_h3cell': expected a number but got datetime",
    ],
    [
      'ds | extend h = geo_h3cell_parent("862a1072fffffff", "5")',
      54,
      "argument 2 of 'geo_h3cell_parent': expected a number but got string",
    ],
    [
      'ds | extend r = geo_azimuth(1, 2, 3, method)',
      38,
      "argument 4 of 'geo_azimuth': expected a number but got string",
    ],
    [
      'ds | extend c = convert_length(method, "Meter", "Foot")',
      32,
      "argument 1 of 'convert_length': expected a number but got string",
    ],
    [
      'ds | extend s = format_datetime("2024-01-01", "yyyy")',
      33,
      "argument 1 of 'format_datetime': expected a datetime but got string",
    ],
    [
      'ds | extend t = make_datetime(2024, "1", 1)',
      37,
      "argument 2 of 'make_datetime': expected a number but got string",
    ],
    [
      'ds | extend z = zip(pack_array(1), "[2]")',
      36,
      "argument 2 of 'zip': expected a dynamic array but got string",
    ],
    [
      'ds | extend b = bin_at(_time, 60, datetime(2024-01-01))',
      31,
      "argument 2 of 'bin_at': expected a timespan but got long",
    ],
    ['ds | extend b = bin_at(_time, 1h, 0)', 35, "argument 3 of 'bin_at': expected a datetime but got long"],
    [
      'ds | extend b = bin_at(method, 1, 0)',
      24,
      "argument 1 of 'bin_at': expected a number, timespan or datetime but got string",
    ],
  ])('%s → apl_type_mismatch at 1:%d', (text, column, message) => {
    const err = mismatch(text);
    expect(err.message).toContain(message);
    expect(err).toMatchObject({ span: { line: 1, column } });
  });

  it.each([
    // dynamic arguments pass (their type is known per row), GeoJSON may be JSON text, and the
    // types each page documents are accepted
    ['ds | extend d = geo_distance_2points(req_duration_ms, 1, 2, 3, true)'],
    ['ds | extend b = geo_point_in_polygon(tags.lng, tags.lat, tags.shape)'],
    ['ds | extend b = geo_point_in_polygon(1, 2, \'{"type":"Polygon","coordinates":[]}\')'],
    [`ds | extend d = geo_line_densify(${LINE}, 10, false)`],
    [`ds | extend d = geo_polygon_densify(${POLY}, 0.5)`],
    [`ds | extend f = geo_line_locate_point(${LINE}, 1, 1.5, true)`],
    ['ds | extend h = geo_h3cell_parent("862a1072fffffff", 4)'],
    ['ds | extend c = convert_length(req_duration_ms, "Meter", "Foot")'],
    ['ds | extend s = format_datetime(_time, "yyyy")'],
    ['ds | extend t = make_datetime(2024, 1, 1, 2, 3, 4.5)'],
    ['ds | extend z = zip(tags, pack_array(1))'],
    ['ds | extend b = bin_at(_time, 1h, datetime(2024-01-01))'],
    ['ds | extend b = bin_at(req_duration_ms, 2.5, 1)'],
    ['ds | extend b = bin_at(1h, 1d, 2h)'],
  ])('%s plans', (text) => {
    expect(() => plan(text)).not.toThrow();
  });
});

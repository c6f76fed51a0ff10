import { ZIP_FUNCTIONS } from './array-zip';
import { BINNING_FUNCTIONS } from './binning';
import { CONDITIONAL_FUNCTIONS } from './conditional';
import { CONVERSION_FUNCTIONS } from './conversions';
import { DATETIME_FUNCTIONS } from './datetime';
import { DYNAMIC_FUNCTIONS } from './dynamic';
import { FFT_FUNCTIONS } from './fft';
import { GENAI_FUNCTIONS } from './genai-functions';
import { KUSTO_DATETIME_FUNCTIONS } from './kusto-datetime-functions';
import { KUSTO_TEXT_FUNCTIONS } from './kusto-text-functions';
import { GEO_FUNCTIONS } from './geo';
import { GEO_BOOLEAN_FUNCTIONS } from './geo-boolean';
import { GEO_BUFFER_FUNCTIONS } from './geo-buffers';
import { GEO_CLOSEST_FUNCTIONS } from './geo-closest';
import { GEO_COVERING_FUNCTIONS } from './geo-covering';
import { GEO_IP_FUNCTIONS } from './geo-ip';
import { GEO_SIMPLIFY_FUNCTIONS } from './geo-simplify';
import { HASH_IP_FUNCTIONS } from './hash-ip';
import { MATH_FUNCTIONS } from './math';
import { MORE_RARE_FUNCTIONS } from './more-rare-functions';
import { OPERATOR_HELPER_FUNCTIONS } from './operator-helpers';
import type { ScalarImpl } from './scalar-impl';
import { RARE_FUNCTIONS } from './rare-functions';
import { SERIES_FUNCTIONS } from './series-functions';
import { SKETCH_FUNCTIONS } from './sketch-functions';
import { STRING_FUNCTIONS } from './strings';
import { UNIT_CONVERSION_FUNCTIONS } from './unit-conversion';
import { ZLIB_FUNCTIONS } from './zlib';

/** Row-wise implementations of scalar functions, by canonical name (signatures live in query-plan). */
export const SCALAR_IMPLS: ReadonlyMap<string, ScalarImpl> = new Map(
  Object.entries({
    ...CONDITIONAL_FUNCTIONS,
    ...CONVERSION_FUNCTIONS,
    ...STRING_FUNCTIONS,
    ...MATH_FUNCTIONS,
    ...DATETIME_FUNCTIONS,
    ...DYNAMIC_FUNCTIONS,
    ...HASH_IP_FUNCTIONS,
    ...RARE_FUNCTIONS,
    ...OPERATOR_HELPER_FUNCTIONS,
    ...MORE_RARE_FUNCTIONS,
    ...SERIES_FUNCTIONS,
    ...FFT_FUNCTIONS,
    ...GENAI_FUNCTIONS,
    ...KUSTO_DATETIME_FUNCTIONS,
    // Kusto function extensions (docs/apl.md)
    ...BINNING_FUNCTIONS,
    ...ZIP_FUNCTIONS,
    ...ZLIB_FUNCTIONS,
    ...UNIT_CONVERSION_FUNCTIONS,
    ...GEO_FUNCTIONS,
    ...GEO_BUFFER_FUNCTIONS,
    ...GEO_SIMPLIFY_FUNCTIONS,
    ...GEO_BOOLEAN_FUNCTIONS,
    ...GEO_CLOSEST_FUNCTIONS,
    ...GEO_COVERING_FUNCTIONS,
    ...GEO_IP_FUNCTIONS,
    ...SKETCH_FUNCTIONS,
    ...KUSTO_TEXT_FUNCTIONS,
  }),
);

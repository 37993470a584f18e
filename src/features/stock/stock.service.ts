/*
 * Stock services, one file per operation (issue 40); this module keeps the exported names. Locations and settings:
 * stock-locations; the ledger (moves, counts, transfers, level settings): stock-ledger; levels and moves as read:
 * stock-read; work order part lines (consumption, returns): stock-lines.
 */
export {
  DEFAULT_LOCATION_NAME,
  defaultLocationId,
  getLocation,
  listLocations,
  listLocationOptions,
  addLocation,
  updateLocation,
  deleteLocation,
  requireLocation,
  getStockSettings,
  updateStockSettings,
} from './stock-locations.service';
export {
  type MoveInput,
  type MoveOptions,
  shortageConflict,
  lockStockablePart,
  postMove,
  levelQuantity,
  postCount,
  transferStock,
  countStock,
  updateLevelSettings,
} from './stock-ledger.service';
export { listLevels, toMoveDto, getMove, listMoves, exportMovesBatch } from './stock-read.service';
export { consumedForLine, consumeForLine, returnForLine, isStockable } from './stock-lines.service';

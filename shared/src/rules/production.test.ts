import { describe, expect, it } from 'vitest';
import {
  bonusedOutput,
  buildingEfficiency,
  buildingSaleRefund,
  effectiveOutput,
  efficiencyWarning,
  equipmentSpentToLevel,
  equipmentUpgradeCost,
  hireCost,
  marketSellUnitPriceCents,
  overallEfficiency,
  popularity,
  totalBonusPercent,
  weightedAverageCents,
} from './production.ts';

describe('production rules', () => {
  it('efficiency = min(100, employees x 10 + equipment_level x 15)', () => {
    expect(buildingEfficiency(1, 1)).toBe(25);
    expect(buildingEfficiency(3, 2)).toBe(60);
    expect(buildingEfficiency(5, 4)).toBe(100);
    expect(buildingEfficiency(10, 5)).toBe(100);
    expect(buildingEfficiency(0, 1)).toBe(15);
  });

  it('effective output = round(output x rate/100 x efficiency/100)', () => {
    expect(effectiveOutput(100, 100, 100)).toBe(100);
    expect(effectiveOutput(100, 100, 25)).toBe(25);
    expect(effectiveOutput(50, 150, 60)).toBe(45);
    expect(effectiveOutput(10, 10, 25)).toBe(0); // 0.25 rounds down
    expect(effectiveOutput(2, 100, 25)).toBe(1); // 0.5 rounds half up
    expect(effectiveOutput(7, 200, 100)).toBe(14);
  });

  it('total bonus counts the city bonus only when it fits, and the research bonus', () => {
    expect(totalBonusPercent(15, true, 5, 0)).toBe(20);
    expect(totalBonusPercent(15, false, 5, 0)).toBe(5);
    expect(totalBonusPercent(15, true, 0, 10)).toBe(25);
    expect(totalBonusPercent(15, false, 0, 35)).toBe(35);
  });

  it('building-detail output, overall efficiency, warning and popularity', () => {
    expect(bonusedOutput(100, 20)).toBe(120);
    expect(bonusedOutput(150, 15)).toBe(173); // 172.5 rounds half up
    expect(overallEfficiency(0)).toBe(70);
    expect(overallEfficiency(20)).toBe(90);
    expect(overallEfficiency(45)).toBe(100);
    expect(efficiencyWarning(89)).toBe(true);
    expect(efficiencyWarning(90)).toBe(false);
    expect(popularity(120)).toBe(490);
    expect(popularity(0)).toBe(250);
  });

  it('equipment upgrade cost sums the ladder over the levels gained', () => {
    expect(equipmentUpgradeCost(1, 2)).toBe(10_000);
    expect(equipmentUpgradeCost(1, 3)).toBe(35_000);
    expect(equipmentUpgradeCost(3, 5)).toBe(150_000);
    expect(equipmentUpgradeCost(1, 5)).toBe(185_000);
    expect(() => equipmentUpgradeCost(3, 3)).toThrow(RangeError);
    expect(() => equipmentUpgradeCost(4, 2)).toThrow(RangeError);
    expect(() => equipmentUpgradeCost(1, 6)).toThrow(RangeError);
    expect(equipmentSpentToLevel(1)).toBe(0);
    expect(equipmentSpentToLevel(3)).toBe(35_000);
  });

  it('hire cost, sale refund, market sell price, weighted average', () => {
    expect(hireCost(1)).toBe(5_000);
    expect(hireCost(10)).toBe(50_000);
    expect(buildingSaleRefund(2_000_000)).toBe(1_000_000);
    expect(buildingSaleRefund(1)).toBe(1); // 0.5 cent rounds half up
    expect(marketSellUnitPriceCents(1_000)).toBe(950);
    expect(marketSellUnitPriceCents(250)).toBe(238); // 237.5 rounds half up
    expect(weightedAverageCents(10, 100, 10, 200)).toBe(150);
    expect(weightedAverageCents(0, 0, 5, 300)).toBe(300);
    expect(weightedAverageCents(3, 100, 0, 0)).toBe(100);
  });
});

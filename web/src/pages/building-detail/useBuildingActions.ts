/**
 * The building's management actions (hire, equipment, rate, recipe, category, sell): which dialog
 * is open, and the mutations with their toasts (spec section 8). What each mutation refreshes is
 * said once, in lib/refreshes.ts.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { getQueryKey } from '@trpc/react-query';
import { formatMoney } from '../../lib/format';
import { notifyFailure, notifySuccess } from '../../lib/notify';
import { trpc } from '../../trpc';

export type BuildingDialog = 'hire' | 'upgrade' | 'rate' | 'recipe' | 'category' | 'sell' | null;

const onError = (error: unknown) => notifyFailure('Error', error, 'Something went wrong. Please try again.');

export function useBuildingActions() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<BuildingDialog>(null);
  const done = (title: string, message?: string) => () => {
    notifySuccess(title, message);
    setDialog(null);
  };
  const hire = trpc.buildings.hireEmployees.useMutation({ onSuccess: done('Employees hired successfully!'), onError });
  const upgrade = trpc.buildings.upgradeEquipment.useMutation({ onSuccess: done('Equipment upgraded successfully!'), onError });
  const rate = trpc.buildings.productionRate.useMutation({ onSuccess: done('Production rate updated!', 'The new rate applies from the next turn.'), onError });
  const recipe = trpc.buildings.selectRecipe.useMutation({ onSuccess: done('Production recipe selected!'), onError });
  const category = trpc.buildings.selectCategory.useMutation({ onSuccess: done('Product category selected!'), onError });
  const sell = trpc.buildings.sell.useMutation({
    onSuccess: (result) => {
      const moved =
        result.units_moved_to_warehouse > 0 ? ` ${result.units_moved_to_warehouse.toLocaleString('en-US')} units of stock moved to your warehouse.` : '';
      notifySuccess('Building sold!', `Your ${result.name} in ${result.city_name} was sold for ${formatMoney(result.refund)}.${moved}`);
      setDialog(null);
      // Leave the page first: this building no longer exists.
      void navigate('/my-buildings', { replace: true });
      queryClient.removeQueries({ queryKey: getQueryKey(trpc.buildings.get, { id: result.id }, 'query') });
    },
    onError: (error) => notifyFailure('Error', error, 'Could not sell the building. Please try again.'),
  });
  return { dialog, open: setDialog, close: () => setDialog(null), hire, upgrade, rate, recipe, category, sell };
}

export type BuildingActions = ReturnType<typeof useBuildingActions>;

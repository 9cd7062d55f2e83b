/** axe on every screen, light, 375 px (axeEveryScreen.ts; the other schemes and widths are files of their own, run side by side). */
import { axeOnEveryScreen } from './axeEveryScreen';

axeOnEveryScreen('light', '375');
